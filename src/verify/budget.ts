// Every request of a verify run goes through here: it counts against the request budget and the
// time budget, waits out Retry-After on 429/503 when the wait fits (reads only: a write is never
// sent twice), and hands back the response with its body read and parsed.
import { isJsonMediaType, mediaTypeOf } from '../drift/check.js';

export interface Exchange {
  status: number;
  headers: Headers;
  contentType: string | null;
  body: unknown;
  bodyUnparsable: boolean;
  /** Responses that asked to wait (429/503 with Retry-After) before this one, by status. */
  waitedOn: number[];
}

export class BudgetExhausted extends Error {
  override readonly name = 'BudgetExhausted';
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
      if (this.requestsUsed >= this.maxRequests) throw new BudgetExhausted(`request budget of ${this.maxRequests} used up`);
      const remaining = this.remainingMs();
      if (remaining <= 0) throw new BudgetExhausted(`time budget of ${this.timeBudgetMs / 1000} s used up`);
      this.requestsUsed += 1;
      const response = await this.deps.fetch(url, { ...init, signal: AbortSignal.timeout(Math.min(this.requestTimeoutMs, remaining)) });
      const exchange = await read(response, waitedOn);
      const wait = retryAfterMs(response);
      const canWait = init.method === 'GET' && (response.status === 429 || response.status === 503) && wait !== undefined;
      // A wait that would use up the time budget leaves nothing to send the read again with.
      if (!canWait || wait >= this.remainingMs() || this.requestsUsed >= this.maxRequests) return exchange;
      waitedOn.push(response.status);
      this.retriesAfterWait += 1;
      await this.deps.sleep(wait);
    }
  }
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

async function read(response: Response, waitedOn: number[]): Promise<Exchange> {
  const contentType = response.headers.get('content-type');
  const text = await response.text();
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
  return { status: response.status, headers: response.headers, contentType, body, bodyUnparsable, waitedOn: [...waitedOn] };
}
