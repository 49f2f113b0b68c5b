// Every request of a verify run goes through here: it counts against the request budget and the
// time budget, follows redirects only as the client does (src/client/redirect.ts), waits out
// Retry-After on 429/503 when the wait fits (reads only: a write is never sent twice), and hands
// back the response with its body read (within the byte limit) and parsed.
import { BodyTooLargeError, DEFAULT_MAX_RESPONSE_BYTES, readTextWithin } from '../body-limit.js';
import { fetchFollowingRedirects, REDIRECTS } from '../client/redirect.js';
import { isJsonMediaType, mediaTypeOf } from '../drift/check.js';

export interface Exchange {
  status: number;
  headers: Headers;
  contentType: string | null;
  body: unknown;
  bodyUnparsable: boolean;
  /** Responses that asked to wait (429/503 with Retry-After) before this one, by status. */
  waitedOn: number[];
  /**
   * Set when the answer is a redirect the policy did not follow (another origin, a write, too many
   * hops): its body is not read, and the answer is never scored as the service's.
   */
  redirect?: UnfollowedRedirect;
}

export interface UnfollowedRedirect {
  /** The origin `Location` points to (scheme, host, port only), or undefined when absent or no URL. */
  targetOrigin: string | undefined;
  /** Why it was not followed. */
  reason: 'other-origin' | 'not-a-read' | 'too-many' | 'no-location';
}

export class BudgetExhausted extends Error {
  override readonly name = 'BudgetExhausted';
}

/** An answer's body went past --max-response-bytes; the read stopped there and nothing of it is kept. */
export class ResponseTooLarge extends Error {
  override readonly name = 'ResponseTooLarge';
  constructor(
    readonly status: number,
    readonly limitBytes: number,
  ) {
    super(`the answer (${status}) is larger than --max-response-bytes (${limitBytes} bytes); reading stopped there`);
  }
}

export interface BudgetDeps {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

export class Budget {
  requestsUsed = 0;
  retriesAfterWait = 0;
  private readonly started: number;

  constructor(
    readonly maxRequests: number,
    readonly timeBudgetMs: number,
    private readonly requestTimeoutMs: number,
    private readonly deps: BudgetDeps,
    readonly maxResponseBytes: number = DEFAULT_MAX_RESPONSE_BYTES,
  ) {
    this.started = deps.now();
  }

  get elapsedMs(): number {
    return this.deps.now() - this.started;
  }

  private remainingMs(): number {
    return this.timeBudgetMs - this.elapsedMs;
  }

  /** Sends one request; reads (GET) may be sent again after a Retry-After wait, writes never. */
  async send(url: string, init: RequestInit & { method: string }): Promise<Exchange> {
    const waitedOn: number[] = [];
    for (;;) {
      const remaining = this.checkBudgets();
      // One timer for the request and the redirects it is allowed to follow, body included.
      const signal = AbortSignal.timeout(Math.min(this.requestTimeoutMs, remaining));
      let first = true;
      let lastUrl = url;
      // Every hop is a request sent: each counts, and none goes out past a budget.
      const counted = (hopUrl: string, hopInit: RequestInit): Promise<Response> => {
        if (!first) this.checkBudgets();
        first = false;
        this.requestsUsed += 1;
        return this.deps.fetch(hopUrl, hopInit);
      };
      // `manual`: fetch would otherwise follow any redirect to any origin, Authorization and all.
      const response = await fetchFollowingRedirects(counted, url, { ...init, redirect: 'manual', signal }, (hop) => {
        lastUrl = hop;
      });
      const unfollowed = unfollowedRedirect(response, lastUrl, init.method);
      if (unfollowed) {
        await response.body?.cancel().catch(() => undefined);
        return {
          status: response.status,
          headers: response.headers,
          contentType: response.headers.get('content-type'),
          body: undefined,
          bodyUnparsable: false,
          waitedOn: [...waitedOn],
          redirect: unfollowed,
        };
      }
      const exchange = await read(response, waitedOn, this.maxResponseBytes);
      const wait = retryAfterMs(response);
      const canWait =
        init.method === 'GET' && (response.status === 429 || response.status === 503) && wait !== undefined;
      // A wait that would use up the time budget leaves nothing to send the read again with.
      if (!canWait || wait >= this.remainingMs() || this.requestsUsed >= this.maxRequests) return exchange;
      waitedOn.push(response.status);
      this.retriesAfterWait += 1;
      await this.deps.sleep(wait);
    }
  }

  /** What is left of the time budget; throws BudgetExhausted when either budget is used up. */
  private checkBudgets(): number {
    if (this.requestsUsed >= this.maxRequests)
      throw new BudgetExhausted(`request budget of ${this.maxRequests} used up`);
    const remaining = this.remainingMs();
    if (remaining <= 0) throw new BudgetExhausted(`time budget of ${this.timeBudgetMs / 1000} s used up`);
    return remaining;
  }
}

/**
 * A 3xx that fetchFollowingRedirects handed back is one the policy refused to follow: say why. The
 * target is kept only as its origin, so no path or query of another host reaches the report.
 */
function unfollowedRedirect(response: Response, url: string, method: string): UnfollowedRedirect | undefined {
  if (!REDIRECTS.has(response.status)) return undefined;
  const location = response.headers.get('location');
  let target: URL | undefined;
  try {
    target = location ? new URL(location, url) : undefined;
  } catch {
    target = undefined;
  }
  // An opaque origin ("null": data:, file:, …) is no place to name.
  const targetOrigin = target && target.origin !== 'null' ? target.origin : undefined;
  if (!location || !target) return { targetOrigin, reason: 'no-location' };
  if (method !== 'GET' && method !== 'HEAD') return { targetOrigin, reason: 'not-a-read' };
  if (target.origin !== new URL(url).origin) return { targetOrigin, reason: 'other-origin' };
  return { targetOrigin, reason: 'too-many' };
}

/** Retry-After in seconds or as an HTTP date, in milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(response: Response, now = Date.now()): number | undefined {
  // Headers hands values back without surrounding whitespace.
  const raw = response.headers.get('retry-after');
  if (!raw) return undefined;
  if (/^[0-9]+$/.test(raw)) return Number(raw) * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

async function read(response: Response, waitedOn: number[], limitBytes: number): Promise<Exchange> {
  const contentType = response.headers.get('content-type');
  let text: string;
  try {
    text = await readTextWithin(response, limitBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new ResponseTooLarge(response.status, limitBytes);
    throw error;
  }
  let body: unknown;
  let bodyUnparsable = false;
  if (text.length > 0 && isJsonMediaType(mediaTypeOf(contentType))) {
    try {
      body = JSON.parse(text);
    } catch {
      bodyUnparsable = true;
    }
  } else if (text.length > 0) {
    body = text;
  }
  return {
    status: response.status,
    headers: response.headers,
    contentType,
    body,
    bodyUnparsable,
    waitedOn: [...waitedOn],
  };
}
