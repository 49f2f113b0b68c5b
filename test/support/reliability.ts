// Shared checks of the reliability suite (test/properties, test/faults): how a call settled, within
// what time, whether an error leaks a secret, unhandled rejections, and TCP handles left open.
import { inspect } from 'node:util';
import { eventuallyOnTime, onTimeDeadline } from './on-time.js';

export type Settled<T> =
  | { kind: 'data'; value: T; ms: number }
  | { kind: 'error'; error: unknown; ms: number }
  | { kind: 'hung'; ms: number };

/**
 * Races the call against a deadline of on-time milliseconds (test/support/on-time.ts: time the
 * process was free to run, so load stretches it and a hang does not). No fake timers: the client's
 * own timers must do the work. The deadline's ticks always stop, so they leave no handle behind.
 * `ms` is the wall-clock time the call took.
 */
export async function settleWithin<T>(call: Promise<T>, deadlineMs: number): Promise<Settled<T>> {
  const started = performance.now();
  const deadline = onTimeDeadline(deadlineMs);
  try {
    const outcome = await Promise.race([
      call.then(
        (value) => ({ kind: 'data' as const, value }),
        (error: unknown) => ({ kind: 'error' as const, error }),
      ),
      deadline.expired.then(() => 'hung' as const),
    ]);
    const ms = performance.now() - started;
    return outcome === 'hung' ? { kind: 'hung', ms } : { ...outcome, ms };
  } finally {
    deadline.cancel();
  }
}

/** Every form in which an error ends up in a log. */
export function loggedForms(error: unknown): string[] {
  const forms = [String(error), inspect(error, { depth: 10 }), inspect(error, { depth: 10, showHidden: true })];
  if (error instanceof Error) forms.push(error.message, error.stack ?? '');
  try {
    forms.push(JSON.stringify(error) ?? '');
  } catch (e) {
    forms.push(`JSON.stringify threw: ${String(e)}`);
  }
  return forms;
}

/** The secrets that appear in any logged form of the error (expected: none). */
export const leakedSecrets = (error: unknown, secrets: readonly string[]): string[] =>
  secrets.filter((secret) => loggedForms(error).some((form) => form.includes(secret)));

/** Collects `unhandledRejection`s from now until `stop()`. */
export function watchUnhandledRejections(): { reasons: unknown[]; stop(): void } {
  const reasons: unknown[] = [];
  const listener = (reason: unknown): void => {
    reasons.push(reason);
  };
  process.on('unhandledRejection', listener);
  return { reasons, stop: () => process.off('unhandledRejection', listener) };
}

/** TCP sockets and servers alive in this process (Node's own resource list). */
export const openTcpHandles = (): number =>
  process.getActiveResourcesInfo().filter((name) => name.startsWith('TCP')).length;

/** Waits until at most `baseline` TCP handles are alive, or `withinMs` on-time ms pass; resolves the count. */
export async function tcpHandlesSettle(baseline: number, withinMs = 2_000): Promise<number> {
  await eventuallyOnTime(() => openTcpHandles() <= baseline, withinMs);
  return openTcpHandles();
}

/** A fixed-width text table: the same in every terminal and CI log. */
export function textTable(rows: readonly Record<string, string>[]): string {
  const columns = Object.keys(rows[0] ?? {});
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]): string => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  return [
    line(columns),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map((row) => line(columns.map((c) => row[c] ?? ''))),
  ].join('\n');
}
