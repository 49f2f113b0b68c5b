// The fetch that openapi-fetch calls: one per client call, so that timeout state, attempts and
// the caller's signal belong to that call. It adds per-attempt timeouts, retries with backoff,
// and a redirect policy that never carries the bearer token to another origin.
import { NetworkError, TimeoutError, type ErrorContext } from '../errors.js';
import { backoffMs, parseRetryAfter, sleep, type RetrySettings } from './retry.js';

export interface TransportSettings {
  fetch: (request: Request) => Promise<Response>;
  timeoutMs: number;
  retry: RetrySettings | false;
  /** Builds the redacted context of an error from the request. */
  context: (request: Request) => ErrorContext;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

export class CallTransport {
  attempts = 0;
  /** The request as openapi-fetch built it (after middleware), for error context. */
  lastRequest: Request | undefined;
  /** True once the current attempt's timer fired; read when a body read fails after `fetch` returned. */
  timedOut = false;
  private disarm: (() => void) | undefined;

  constructor(
    private readonly settings: TransportSettings,
    private readonly callerSignal?: AbortSignal,
  ) {}

  /** Stops the timer of the attempt whose response was returned. Call it once the body is read. */
  finish(): void {
    this.disarm?.();
    this.disarm = undefined;
  }

  readonly fetch = async (request: Request): Promise<Response> => {
    const { retry, timeoutMs } = this.settings;
    const started = Date.now();
    this.lastRequest = request;
    for (;;) {
      this.attempts += 1;
      this.callerSignal?.throwIfAborted();
      const attempt = this.arm(timeoutMs);
      let response: Response;
      try {
        response = await this.send(request.clone(), attempt.signal);
      } catch (error) {
        this.finish();
        if (this.callerSignal?.aborted) throw this.callerSignal.reason;
        const failure = this.timedOut
          ? new TimeoutError(timeoutMs, this.attempts, this.settings.context(request))
          : new NetworkError(systemCode(error), this.attempts, this.settings.context(request));
        const wait = retry ? backoffMs(this.attempts, retry) : 0;
        if (!retry || !this.mayRetry(retry, started, wait)) throw failure;
        await sleep(wait, this.callerSignal);
        continue;
      }
      if (retry && retry.statuses.includes(response.status)) {
        const wait = parseRetryAfter(response.headers.get('retry-after')) ?? backoffMs(this.attempts, retry);
        if (this.mayRetry(retry, started, wait)) {
          this.finish();
          await response.body?.cancel().catch(() => undefined);
          await sleep(wait, this.callerSignal);
          continue;
        }
      }
      return response;
    }
  };

  private mayRetry(retry: RetrySettings, started: number, wait: number): boolean {
    return this.attempts < retry.maxAttempts && Date.now() - started + wait <= retry.maxElapsedMs;
  }

  private arm(timeoutMs: number): AbortController {
    const controller = new AbortController();
    this.timedOut = false;
    const timer = setTimeout(() => {
      this.timedOut = true;
      controller.abort(new DOMException('attempt timed out', 'TimeoutError'));
    }, timeoutMs);
    const onCallerAbort = (): void => controller.abort(this.callerSignal?.reason);
    this.callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    this.disarm = () => {
      clearTimeout(timer);
      this.callerSignal?.removeEventListener('abort', onCallerAbort);
    };
    return controller;
  }

  /** Follows same-origin redirects of safe methods; anything else comes back as the 3xx itself. */
  private async send(request: Request, signal: AbortSignal): Promise<Response> {
    let current = new Request(request, { signal, redirect: 'manual' });
    for (let hop = 0; ; hop += 1) {
      const response = await this.settings.fetch(current);
      const location = response.headers.get('location');
      if (!REDIRECTS.has(response.status) || !location || hop >= MAX_REDIRECTS) return response;
      const target = new URL(location, current.url);
      const safe = current.method === 'GET' || current.method === 'HEAD';
      if (target.origin !== new URL(current.url).origin || !safe) return response;
      await response.body?.cancel().catch(() => undefined);
      current = new Request(target, { method: current.method, headers: current.headers, signal, redirect: 'manual' });
    }
  }
}

function systemCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
