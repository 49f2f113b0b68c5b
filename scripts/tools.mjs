#!/usr/bin/env node
// `npm run tools [-- <name>…]`: installs the tool cache's tools (all of them, or those named) from
// their lock files, as the matrix and mutation testing would on first need (scripts/lib/tools.mjs).
// `.ci/run` and `npm run test:all` run it first, so that a registry problem fails here, named.
import { ensureTool, toolNames } from './lib/tools.mjs';

const names = process.argv.slice(2).length ? process.argv.slice(2) : toolNames();
let failed = 0;
for (const [index, name] of names.entries()) {
  const started = Date.now();
  try {
    const modules = await ensureTool(name, { log: () => undefined });
    console.log(
      `[${index + 1}/${names.length}] ${name}: ready in ${modules} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
  } catch (error) {
    failed += 1;
    console.error(`[${index + 1}/${names.length}] ${name}: ${error.message}`);
  }
}
process.exit(failed ? 1 : 0);
