// The one way a test starts the command line (`baas-pix-contract …`): plain `node` on the bundle of
// src/cli/ that scripts/lib/cli-build.mjs makes once for the sources as they are (reused while they do
// not change), not `node --import tsx src/cli/index.ts`, which transpiled the whole command line again
// in every child (TESTING.md, "The command line in tests"). The published bin is a bundle too
// (dist/cli.js); the package tests run that one.
import { builtCli } from '../../scripts/lib/cli-build.mjs';

let path: string | undefined;

/** The bundled command line's file, built on the first call of a process if no up-to-date build exists. */
export function cliPath(): string {
  path ??= builtCli();
  return path;
}

/** The command and arguments that run `baas-pix-contract ...args`: `[process.execPath, [cli.mjs, ...args]]`. */
export function cliCommand(args: string[]): [string, string[]] {
  return [process.execPath, [cliPath(), ...args]];
}
