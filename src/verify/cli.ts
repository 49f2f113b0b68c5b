// `baas-pix-contract verify …` (and `npm run verify -- …`, through src/cli): parse, run, print, exit status.
// 0: nothing drifted; 1: drift; 2: could not check: a usage error (no credentials among them), the
// credentials refused, or a check that could not run (budget, network).
import { writeFile } from 'node:fs/promises';
import { redactText } from '../redact.js';
import {
  insecureHttpWarnings,
  outputSecrets,
  parseVerifyArgs,
  USAGE,
  UsageError,
  type VerifyOptions,
} from './options.js';
import { redactUrl } from '../redact.js';
import { escapeControls, formatHeader, formatJson, formatTable } from './report.js';
import { runVerify } from './run.js';

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  env: Readonly<Record<string, string | undefined>>;
  fetch?: typeof fetch;
}

const defaultIo: Io = {
  out: (t) => process.stdout.write(`${t}\n`),
  err: (t) => process.stderr.write(`${t}\n`),
  env: process.env,
};

export async function main(argv: readonly string[], io: Io = defaultIo): Promise<number> {
  let options: VerifyOptions;
  try {
    options = parseVerifyArgs(argv, io.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`verify: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  // Read at each output: tokens issued during the run (client credentials) join the list.
  const secrets = () => outputSecrets(options);
  // Said before anything is sent, so they are seen even if the run never ends.
  io.out(formatHeader(redactUrl(options.baseUrl, secrets()), options.credentials.kind, secrets()));
  for (const warning of insecureHttpWarnings(options)) io.err(warning);
  try {
    const report = await runVerify(options, io.fetch ? { fetch: io.fetch } : {});
    io.out(formatTable(report, secrets()));
    if (options.reportFile) {
      await writeFile(options.reportFile, `${formatJson(report, secrets())}\n`);
      io.out(`report: ${options.reportFile}`);
    }
    // Refused credentials: nothing that needed them was checked, whatever the rest found.
    return report.credentialsRefused ? 2 : report.drifted ? 1 : report.counts.error > 0 ? 2 : 0;
  } catch (error) {
    io.err(escapeControls(redactText(`verify: ${(error as Error).message}`, secrets())));
    return 2;
  } finally {
    await options.credentials.close();
  }
}
