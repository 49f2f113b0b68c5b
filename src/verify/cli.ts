// `baas-pix-contract verify …` (and `npm run verify -- …`): check the options, run, print, exit status.
// The flags are declared and parsed by the command line (src/cli/verify.ts), like every command's.
// 0: nothing drifted; 1: drift; 2: could not check: a usage error (no credentials among them, nor an
// update the contract refuses), the credentials refused, a write the service refused (it could not be
// verified), or a check that could not run (budget, network).
import { insecureHttpWarnings } from '../cli/connection/base-url.js';
import { outputSecrets, type VerifyValues, verifyOptions } from './options.js';
import { formatHeader, formatJson, formatTable } from './report.js';
import { runVerify } from './run.js';
import { checkedWrite } from './write.js';
import { beginsWith, type NamedFile, readableProblem, WholeFile, writeWholeFile } from '../files.js';
import { UsageError } from '../usage-error.js';
import { readFile, stat } from 'node:fs/promises';

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Where BAAS_TOKEN, BAAS_CLIENT_SECRET and BAAS_TLS_PASSPHRASE are read (default: process.env). */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  fetch?: typeof fetch | undefined;
}

// How every JSON report of verify begins (formatJson): how an existing --report is known to be one, and
// so may be replaced. Any other file is left alone (src/files.ts).
const isVerifyReport = beginsWith('{\n  "tool": "baas-pix-contract verify ');
const NOT_A_REPORT = 'it is not a report of verify, so it is not replaced; remove it or choose another name';

/**
 * Runs verify from its flags' values and prints the outcome; resolves with the exit status. A misuse
 * is thrown as a UsageError before anything is sent: the command line prints it (last) and exits 2.
 */
export async function runVerifyCommand(values: VerifyValues, io: Io): Promise<number> {
  const options = verifyOptions(values, io.env ?? process.env);
  const reportFile: NamedFile | undefined = options.reportFile
    ? { flag: '--report', path: options.reportFile }
    : undefined;
  // A --report that could not be written is refused before anything is sent.
  if (reportFile) await WholeFile.check(reportFile, isVerifyReport, NOT_A_REPORT);
  // The update body is read before anything is sent or shown: a wrong path is a usage error, not Node's ENOENT.
  const body = options.write?.bodyFile;
  const bodyProblem = body === undefined ? undefined : await updateBodyProblem(body);
  // The path is the user's own text: masked like every output (a token or a CPF may be in it).
  if (bodyProblem !== undefined) throw new UsageError(outputSecrets(options).text(`--body ${body} ${bodyProblem}`));
  // The client's pre-flight rule, before the header: an update the contract refuses is a usage error
  // and nothing is sent (runVerify applies it again for options built by hand).
  if (options.write) checkedWrite(options.write, await readFile(options.write.bodyFile, 'utf8'));
  // The run's one holder of its secrets, read at each output: tokens issued during the run join them.
  const secrets = outputSecrets(options);
  // Said before anything is sent, so they are seen even if the run never ends.
  io.out(formatHeader(secrets.url(options.baseUrl), options.credentials.kind, secrets));
  for (const warning of insecureHttpWarnings(options)) io.err(warning);
  try {
    const report = await runVerify(options, io.fetch ? { fetch: io.fetch } : {});
    io.out(formatTable(report, secrets));
    if (reportFile) {
      await writeWholeFile(reportFile, `${formatJson(report, secrets)}\n`, isVerifyReport, NOT_A_REPORT);
      io.out(`report: ${reportFile.path}`);
    }
    // Refused credentials: nothing that needed them was checked, whatever the rest found.
    return report.credentialsRefused ? 2 : report.drifted ? 1 : report.counts.error > 0 ? 2 : 0;
  } catch (error) {
    io.err(secrets.message(`verify: ${(error as Error).message}`));
    return 2;
  } finally {
    await options.credentials.close();
  }
}

// An update body is a few hundred bytes; one over this is not one (and is not read whole to find out).
const MAX_BODY_BYTES = 64 * 1024;

/** Why --body cannot be sent: not a readable file, too large for an update, or not JSON at all. */
async function updateBodyProblem(path: string): Promise<string | undefined> {
  const what = 'the JSON file of the update body';
  const unreadable = await readableProblem(path, what);
  if (unreadable !== undefined) return unreadable;
  if ((await stat(path)).size > MAX_BODY_BYTES) return `is over ${MAX_BODY_BYTES / 1024} KiB; give ${what}`;
  try {
    JSON.parse(await readFile(path, 'utf8'));
    return undefined;
  } catch {
    // JSON.parse's words quote the text, which may hold a CPF: only the rule.
    return `is not valid JSON; give ${what}`;
  }
}
