// The consumer run as a program (Node, Bun, Deno): the setup as JSON in the first argument, what it
// saw as one JSON line on stdout.
import process from 'node:process';
import { consume } from './consume.mjs';

const result = await consume(JSON.parse(process.argv[2]));
console.log(JSON.stringify({ runtime: runtimeName(), result }));

function runtimeName() {
  if (typeof globalThis.Bun !== 'undefined') return `bun ${globalThis.Bun.version}`;
  if (typeof globalThis.Deno !== 'undefined') return `deno ${globalThis.Deno.version.deno}`;
  return `node ${process.versions.node}`;
}
