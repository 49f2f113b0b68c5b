// verify as the command line runs it, for the drift tests: `main` is `baas-pix-contract verify …`
// through the one dispatcher (its parser, its usage errors), with the environment and the fetch a test
// gives; `parseVerifyArgs` is the same parse and checks, without running.
import type { CommandContext } from '../../src/cli/command.js';
import { COMMANDS } from '../../src/cli/commands.js';
import { main as dispatch } from '../../src/cli/main.js';
import { parseFlags } from '../../src/cli/parse.js';
import { VERIFY_FLAGS } from '../../src/cli/verify.js';
import { type VerifyOptions, verifyOptions } from '../../src/verify/options.js';

export interface VerifyIo {
  out: (text: string) => void;
  err: (text: string) => void;
  env: Readonly<Record<string, string | undefined>>;
  fetch?: typeof fetch;
}

/** `baas-pix-contract verify ...argv` (standard output and error without `io`); resolves with the exit status. */
export const main = (argv: readonly string[], io?: VerifyIo): Promise<number> =>
  dispatch(['verify', ...argv], COMMANDS, io as CommandContext | undefined);

export const parseVerifyArgs = (
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): VerifyOptions => verifyOptions(parseFlags(VERIFY_FLAGS, argv), env);

/** A customer of the contract's examples, the account the write tests send to unless told. */
export const WRITE_ACCOUNT = '300541976902';

/** `--allow-writes --account A --document-number CPF --body FILE`: verify's one write, as a test spells it. */
export const writeFlags = (documentNumber: string, bodyFile: string, account = WRITE_ACCOUNT): string[] => [
  '--allow-writes',
  '--account',
  account,
  '--document-number',
  documentNumber,
  '--body',
  bodyFile,
];
