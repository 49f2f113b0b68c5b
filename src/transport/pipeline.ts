// The one retry loop of the package. Every request it sends goes through `sendRequest`: the client's
// calls (typed operations and `raw`, batch work included), the token request and verify. The loop owns
// the attempts (their count, from 1), the waits between them (one `sleep`), and when it ends; what to
// do is asked of policies, as the Azure SDK's core-rest-pipeline asks its policies around one
// sendRequest and openai-node's client asks `shouldRetry` in its single loop:
// - `open`: the sender's own attempt (src/transport/attempt.ts: its timer, redirects, byte limit);
// - `retry`: the retry decision (the client's `shouldRetry`, verify's Retry-After rule, none for a token),
//   asked only of a failure another attempt could cure (`incurable`, failure.ts, is the rule);
// - `policies`: hooks around each attempt, the batch's pacing and adaptive concurrency and verify's
//   budget among them; each may hold an attempt back (`before`), hear what it came to (`after`), and
//   stop the retries (`stop`).
// An answer being retried stays the answer until the next attempt goes: a policy that stops the loop
// during a wait, or before the next attempt, leaves the caller the last answer, never "no answer".
import type { Attempt } from './attempt.js';
import { incurable } from './failure.js';
import { sleep } from './sleep.js';

/** What one attempt came to: an answer (any status), or what its send threw; `attempt` counts from 1. */
export type Tried =
  | { attempt: number; response: Response; error?: undefined }
  | { attempt: number; response?: undefined; error: unknown };

/** Another attempt, after `waitMs`, and why (for the retry event). */
export interface Retry {
  waitMs: number;
  reason: string;
}

/** The retry decision: another attempt after what `tried` came to, or undefined for none. */
export type RetryRule = (tried: Tried, elapsedMs: number) => Retry | undefined;

/** Never another attempt (the token request: a POST of a secret is sent once). */
export const NO_RETRY: RetryRule = () => undefined;

/** What the loop gives a policy before an attempt: the caller's signal, and the loop's own wait. */
export interface AttemptContext {
  /** The caller's signal: a wait of the policy's own should end when it aborts. */
  signal: AbortSignal | undefined;
  /** Waits `ms` (a signal cuts it short, rejecting with its reason): the wait the loop itself uses. */
  wait: Sleep;
}

/**
 * A hook the one retry loop runs around each attempt of a request (`CallOptions.policies`): a wait
 * before it goes (pacing), what it came to, a signal that stops the retries. `updateMany` and
 * `exportKeys` pace their requests with one.
 */
export interface AttemptPolicy {
  /**
   * Before attempt `attempt` goes: may wait (pacing, with the loop's `wait`) or refuse by throwing (a budget used
   * up): the refusal is the request's error, unless a policy's `stop` aborted (then the last answer stands).
   */
  before?: ((attempt: number, context: AttemptContext) => void | Promise<void>) | undefined;
  /** What attempt `attempt` came to, each attempt's, the last included. */
  after?: ((tried: Tried) => void) | undefined;
  /** Once aborted, no retry starts and a wait for one ends: the last answer stands. */
  readonly stop?: AbortSignal | undefined;
}

/** A wait of `ms` that a signal cuts short, rejecting with its reason. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface PipelineRequest {
  /** Starts attempt `attempt` (from 1) through the transport; throwing ends the request with that error. */
  open(attempt: number): Attempt | Promise<Attempt>;
  retry: RetryRule;
  policies?: readonly AttemptPolicy[] | undefined;
  /** The caller's signal: it ends any wait with its reason, and the attempts hear it through `open`. */
  signal?: AbortSignal | undefined;
  /** Told of each retry before its wait. */
  retrying?(retry: Retry, tried: Tried): void;
  /** Told of an answer that was retried, as it is dropped (its body is cancelled). */
  dropped?(response: Response): void;
  /** The wait between attempts: the one `sleep` (sleep.ts) unless a test injects a clock. */
  wait?: Sleep | undefined;
  now?: () => number;
}

/** The final answer and the attempt it came on (still alive: its body is read within its timer). */
export interface Sent {
  response: Response;
  attempt: Attempt;
  attempts: number;
}

/**
 * Sends a request to its end: resolves with the final answer (whatever its status), or rejects with
 * the last attempt's failure, a policy's refusal, or the caller's abort reason.
 */
export async function sendRequest(request: PipelineRequest): Promise<Sent> {
  const { signal, policies = [] } = request;
  const wait = request.wait ?? sleep;
  const now = request.now ?? Date.now;
  const started = now();
  const stopped = () => policies.some((policy) => policy.stop?.aborted);
  // The answer being retried (kept until the next attempt goes) or the failure being retried.
  let held: { sent: Sent } | { error: unknown } | undefined;
  const endWithHeld = (): Sent => {
    if (held === undefined || !('sent' in held)) throw (held as { error: unknown }).error;
    return held.sent;
  };
  for (let attempt = 1; ; attempt += 1) {
    signal?.throwIfAborted();
    try {
      for (const policy of policies) await policy.before?.(attempt, { signal, wait });
    } catch (error) {
      // Stopped before a retry: the last answer stands. Any other refusal is the request's error.
      if (held !== undefined && stopped() && !signal?.aborted) return endWithHeld();
      if (held !== undefined && 'sent' in held) await drop(held.sent, request);
      throw error;
    }
    if (held !== undefined && 'sent' in held) await drop(held.sent, request);
    held = undefined;
    const current = await request.open(attempt);
    let tried: Tried;
    try {
      tried = { attempt, response: await current.send() };
    } catch (error) {
      current.end();
      if (signal?.aborted) throw signal.reason;
      tried = { attempt, error };
    }
    for (const policy of policies) policy.after?.(tried);
    // A failure another attempt cannot cure (failure.ts: a refused header, a permanent TLS failure) ends the
    // loop whatever the retry rule would say: the rule weighs only what a retry could change.
    const cured = tried.error === undefined || incurable(tried.error) === undefined;
    const retry = stopped() || !cured ? undefined : request.retry(tried, now() - started);
    if (tried.response !== undefined) {
      const sent = { response: tried.response, attempt: current, attempts: attempt };
      if (retry === undefined) return sent;
      held = { sent };
    } else {
      if (retry === undefined) throw tried.error;
      held = { error: tried.error };
    }
    request.retrying?.(retry, tried);
    try {
      await waitUnlessStopped(wait, retry.waitMs, signal, policies);
    } catch (error) {
      if (held !== undefined && 'sent' in held) await drop(held.sent, request);
      throw error;
    }
    if (stopped()) {
      return endWithHeld();
    }
  }
}

/** Ends an answer that is not kept: its attempt (timer), its body cancelled so the connection is freed. */
async function drop(sent: Sent, request: PipelineRequest): Promise<void> {
  sent.attempt.end();
  request.dropped?.(sent.response);
  await sent.response.body?.cancel().catch(() => undefined);
}

/** The wait before a retry: the caller's abort rejects it; a policy's stop only cuts it short. */
async function waitUnlessStopped(
  wait: Sleep,
  ms: number,
  signal: AbortSignal | undefined,
  policies: readonly AttemptPolicy[],
): Promise<void> {
  const stops = policies.map((policy) => policy.stop).filter((stop) => stop !== undefined);
  if (stops.length === 0) return wait(ms, signal);
  if (stops.some((stop) => stop.aborted)) return;
  const stopped = AbortSignal.any(stops);
  const either = signal === undefined ? stopped : AbortSignal.any([signal, stopped]);
  try {
    await wait(ms, either);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (!stopped.aborted) throw error;
  }
}
