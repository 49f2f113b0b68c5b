// The fetch that openapi-fetch calls: one per client call, so that timeout state, attempts and
// the caller's signal belong to that call. It adds per-attempt timeouts, retries with backoff,
// and a redirect policy that never carries the bearer token to another origin.
import { NetworkError, TimeoutError, type ErrorContext } from '../errors.js';
import { backoffMs, parseRetryAfter, sleep, type RetrySettings } from './retry.js';

export interface TransportSettings {
  fetch: (request: Request) => Promise<Response>;
  timeoutMs: number;
  retry: RetrySettings | false;
  /** Builds the redacted context of an error from the request, if one was built yet. */
  context: (request: Request | undefined) => ErrorContext;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

export class CallTransport {
  attempts = 0;
  /** The request as openapi-fetch built it (after middleware), for error context. */
  lastRequest: Request | undefined;
  /** True once the current attempt's timer fired; read when a body read fails after `fetch` returned. */
  timedOut = false;
  private controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly unlinkCaller: (() => void) | undefined;
  /** Set when the caller built the Request with `signal` and `redirect: 'manual'` (see transportOptions). */
  requestIsPrepared = false;
  /**
   * Rejects when the attempt whose response was returned is aborted (its timer, or the caller)
   * while its body is still being read. Node's fetch can leave a body read pending after an abort
   * (a 421 re-sent on a new connection, a body that fails to decompress), so reads race this.
   */
  readonly bodyAborted: Promise<never>;
  private rejectBody: ((reason: unknown) => void) | undefined;
  private reading = false;

  constructor(
    private readonly settings: TransportSettings,
    private readonly callerSignal?: AbortSignal,
  ) {
    this.bodyAborted = new Promise<never>((_resolve, reject) => {
      this.rejectBody = reject;
    });
    this.bodyAborted.catch(() => undefined);
    if (callerSignal) {
      // Always the current attempt's controller: a retry gets a fresh one.
      const onAbort = (): void => {
        this.controller.abort(callerSignal.reason);
        if (this.reading) this.rejectBody?.(callerSignal.reason);
      };
      callerSignal.addEventListener('abort', onAbort, { once: true });
      this.unlinkCaller = () => callerSignal.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Give this to openapi-fetch (with `redirect: 'manual'`) so the Request it builds is already
   * abortable by this call, and the first attempt needs no copy of it.
   */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Operation, method and redacted URL of this call, for an error. */
  errorContext(): ErrorContext {
    return this.settings.context(this.lastRequest);
  }

  /** Stops the timer of the attempt whose response was returned. Call it once the body is read. */
  finish(): void {
    clearTimeout(this.timer);
    this.unlinkCaller?.();
  }

  readonly fetch = async (request: Request): Promise<Response> => {
    const { retry, timeoutMs } = this.settings;
    const started = Date.now();
    this.lastRequest = request;
    // A body can be read once: keep a copy for the attempts after the first.
    const template = retry && request.body !== null ? request.clone() : request;
    // A Request's own signal is a follower of the one it was built with, so identity cannot tell.
    let current = this.requestIsPrepared ? request : this.withSignal(request);
    for (;;) {
      this.attempts += 1;
      this.callerSignal?.throwIfAborted();
      this.armTimer(timeoutMs);
      let response: Response;
      try {
        response = await this.send(current);
      } catch (error) {
        clearTimeout(this.timer);
        if (this.callerSignal?.aborted) throw this.callerSignal.reason;
        const failure = this.timedOut
          ? new TimeoutError(timeoutMs, this.attempts, this.errorContext())
          : new NetworkError(systemCode(error), this.attempts, this.errorContext());
        const wait = retry ? backoffMs(this.attempts, retry) : 0;
        if (!retry || !this.mayRetry(retry, started, wait)) throw failure;
        await sleep(wait, this.callerSignal);
        current = this.nextAttempt(template);
        continue;
      }
      if (retry && retry.statuses.includes(response.status)) {
        const wait = parseRetryAfter(response.headers.get('retry-after')) ?? backoffMs(this.attempts, retry);
        if (this.mayRetry(retry, started, wait)) {
          clearTimeout(this.timer);
          await response.body?.cancel().catch(() => undefined);
          await sleep(wait, this.callerSignal);
          current = this.nextAttempt(template);
          continue;
        }
      }
      this.reading = true;
      return response;
    }
  };

  private mayRetry(retry: RetrySettings, started: number, wait: number): boolean {
    return this.attempts < retry.maxAttempts && Date.now() - started + wait <= retry.maxElapsedMs;
  }

  private armTimer(timeoutMs: number): void {
    this.timedOut = false;
    const controller = this.controller;
    this.timer = setTimeout(() => {
      this.timedOut = true;
      const reason = new DOMException('attempt timed out', 'TimeoutError');
      controller.abort(reason);
      if (this.reading) this.rejectBody?.(reason);
    }, timeoutMs);
  }

  private withSignal(request: Request): Request {
    return new Request(request, { signal: this.controller.signal, redirect: 'manual' });
  }

  private nextAttempt(template: Request): Request {
    this.controller = new AbortController();
    return this.withSignal(template.body === null ? template : template.clone());
  }

  /** Follows same-origin redirects of safe methods; anything else comes back as the 3xx itself. */
  private async send(request: Request): Promise<Response> {
    let current = request;
    for (let hop = 0; ; hop += 1) {
      const response = await this.settings.fetch(current);
      if (!REDIRECTS.has(response.status)) return response;
      const location = response.headers.get('location');
      if (!location || hop >= MAX_REDIRECTS) return response;
      const target = new URL(location, current.url);
      const safe = current.method === 'GET' || current.method === 'HEAD';
      if (target.origin !== new URL(current.url).origin || !safe) return response;
      await response.body?.cancel().catch(() => undefined);
      current = new Request(target, { method: current.method, headers: current.headers, signal: this.controller.signal, redirect: 'manual' });
    }
  }
}

/** The system error code (ECONNRESET, …) somewhere in an error's cause chain. */
export function systemCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
