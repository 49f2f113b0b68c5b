// What a verify run found, as a table a person reads and as JSON. Nothing here holds a value from
// a response body: checks describe statuses, media types, header presence and JSON pointers.
import type { DriftProblem } from '../drift/index.js';
import { describeProblem } from '../drift/index.js';
import { redactText } from '../redact.js';

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

export interface VerifyReport {
  tool: string;
  contractVersion: string;
  baseUrl: string;
  startedAt: string;
  readOnly: boolean;
  budgets: { requests: { used: number; limit: number; retriesAfterWait: number }; timeMs: { used: number; limit: number } };
  checks: CheckResult[];
  drifted: boolean;
  counts: Record<Verdict, number>;
}

export function formatTable(report: VerifyReport, secrets: readonly string[]): string {
  const rows = [['check', 'expected', 'seen', 'verdict'], ...report.checks.map((c) => [c.check, c.expected, c.seen, c.verdict.toUpperCase()])];
  const widths = [0, 1, 2, 3].map((i) => Math.min(60, Math.max(...rows.map((r) => r[i]!.length))));
  const line = (r: string[]) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  const out = [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)];
  for (const c of report.checks) {
    for (const p of c.problems) out.push(`  ${c.check}: ${describeProblem(p)}`);
  }
  const { requests, timeMs } = report.budgets;
  out.push(
    '',
    `requests: ${requests.used} of ${requests.limit} (${requests.retriesAfterWait} after a Retry-After wait); time: ${(timeMs.used / 1000).toFixed(1)} s of ${timeMs.limit / 1000} s`,
    `${report.drifted ? 'DRIFT' : report.counts.error > 0 ? 'INCOMPLETE (no drift seen, but some checks could not run)' : 'no drift'}: ${Object.entries(report.counts).filter(([, n]) => n > 0).map(([v, n]) => `${n} ${v}`).join(', ')}`,
  );
  return redactText(out.join('\n'), secrets);
}

/** The JSON report, masked like the table. */
export function formatJson(report: VerifyReport, secrets: readonly string[]): string {
  return redactText(JSON.stringify(report, null, 2), secrets);
}
