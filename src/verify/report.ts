// What a verify run found, as a table a person reads and as JSON. Checks describe statuses, media
// types, header presence and JSON pointers; the one text from a response body is a refused write's
// problem title and detail (bounded, masked, control characters escaped), which says why.
import type { DriftProblem } from '../drift/index.js';
import { describeProblem } from '../drift/index.js';
import { escapeControls, escapeJsonControls, type Secrets } from '../redact.js';
import {
  refusalMessage,
  troubleOf,
  type CredentialKind,
  type CredentialRefusal,
  type CredentialSource,
} from '../cli/connection/credentials.js';

/**
 * ok: as the contract says. drift: the service departs from the contract.
 * held / not-seen: an assumption of the contract (x-assumption) was confirmed, or could not be
 * confirmed in what the run saw; neither is drift. error: the check could not run (budget, network).
 */
export type Verdict = 'ok' | 'drift' | 'held' | 'not-seen' | 'error';

export interface CheckResult {
  check: string;
  expected: string;
  seen: string;
  verdict: Verdict;
  problems: DriftProblem[];
}

/** The service's refusal of the write (--allow-writes): its status, and its problem's title and detail. */
export interface WriteRefusal {
  status: number;
  /** `title: detail` of its problem details (or `code: message` of the upstream envelope), bounded. */
  problem?: string;
}

export interface VerifyReport {
  tool: string;
  contractVersion: string;
  baseUrl: string;
  /** What the run authenticated with (never the secret). */
  credentials: CredentialKind;
  /**
   * Present when the credentials were refused (401/403 on the first page, or by the token endpoint):
   * the checks that need them were not run, and the run could not check the service.
   */
  credentialsRefused?: CredentialRefusal & { message: string };
  /** Present when the service refused the write: the write could not be verified (exit 2, unless drift). */
  writeRefused?: WriteRefusal;
  startedAt: string;
  readOnly: boolean;
  /** Present when the run was let through something unsafe (--allow-insecure-http); printed first. */
  warnings?: string[];
  budgets: {
    requests: { used: number; limit: number; retriesAfterWait: number };
    timeMs: { used: number; limit: number };
  };
  checks: CheckResult[];
  drifted: boolean;
  counts: Record<Verdict, number>;
}

// Escaping, like masking, is src/redact.ts's: re-exported for verify's command line.
export { escapeControls } from '../redact.js';

const CREDENTIAL_WORDS: Record<CredentialKind, string> = {
  token: 'a bearer token',
  'client credentials': 'client credentials',
  none: 'no credentials',
};

/** The first line a run prints, before anything is sent: where, and with what kind of credential (never the secret). */
export function formatHeader(baseUrl: string, kind: CredentialKind, secrets: Secrets): string {
  return secrets.message(`verify ${baseUrl} with ${CREDENTIAL_WORDS[kind]}`);
}

/** The summary's verdict: credentials refused or no token first (nothing else could be checked), then drift, then incomplete. */
function verdictOf(report: VerifyReport): string {
  // A --token-url that is no token endpoint, or a local TLS failure, refused nothing: the credentials were never looked at.
  if (report.credentialsRefused)
    return troubleOf(report.credentialsRefused) === 'refused' ? 'CREDENTIALS REFUSED' : 'NO TOKEN';
  if (report.drifted) return 'DRIFT';
  if (report.writeRefused) return 'WRITE REFUSED (the write could not be verified)';
  return report.counts.error > 0 ? 'INCOMPLETE (no drift seen, but some checks could not run)' : 'no drift';
}

/** What the summary says of a refused write, and what to do. */
function writeRefusalMessage({ status, problem }: WriteRefusal): string {
  const why = problem === undefined ? '' : ` (${problem})`;
  return `the service refused the write with ${status}${why}, so the write could not be verified: check --account, --document-number and --body against the account you test with (404: no such customer; 422: a rule of the service)`;
}

/** The refusal as the report carries it. */
export function refusedSummary(
  source: Pick<CredentialSource, 'kind' | 'shownTokenUrl'>,
  refusal: CredentialRefusal,
): CredentialRefusal & { message: string } {
  return { ...refusal, message: refusalMessage(source, refusal) };
}

export function formatTable(report: VerifyReport, secrets: Secrets): string {
  // Cells carry what the service sent (its content type, JSON pointers made of its member names).
  const rows = [
    ['check', 'expected', 'seen', 'verdict'],
    ...report.checks.map((c) => [c.check, c.expected, c.seen, c.verdict.toUpperCase()].map(escapeControls)),
  ];
  const widths = [0, 1, 2, 3].map((i) => Math.min(60, Math.max(...rows.map((r) => r[i]!.length))));
  const line = (r: string[]) =>
    r
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const out = [
    ...(report.warnings ?? []).map(escapeControls),
    line(rows[0]!),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.slice(1).map(line),
  ];
  for (const c of report.checks) {
    for (const p of c.problems) out.push(escapeControls(`  ${c.check}: ${describeProblem(p)}`));
  }
  const { requests, timeMs } = report.budgets;
  out.push(
    '',
    `requests: ${requests.used} of ${requests.limit} (${requests.retriesAfterWait} after a Retry-After wait); time: ${(timeMs.used / 1000).toFixed(1)} s of ${timeMs.limit / 1000} s`,
    // What to do about it, just above the verdict.
    ...(report.credentialsRefused ? [escapeControls(report.credentialsRefused.message)] : []),
    ...(report.writeRefused ? [escapeControls(writeRefusalMessage(report.writeRefused))] : []),
    escapeControls(
      `${verdictOf(report)}: ${Object.entries(report.counts)
        .filter(([, n]) => n > 0)
        .map(([v, n]) => `${n} ${v}`)
        .join(', ')}`,
    ),
  );
  return secrets.text(out.join('\n'));
}

/**
 * The JSON report, masked like the table. JSON.stringify escapes C0 controls; the rest a terminal
 * would act on (DEL, C1, separators, bidi overrides) get `\uXXXX` too: the same JSON, safe to `cat`.
 */
export function formatJson(report: VerifyReport, secrets: Secrets): string {
  return escapeJsonControls(secrets.text(JSON.stringify(report, null, 2)));
}
