// Every request of a verify run goes through here. verify owns no transport and no retry loop: each
// request goes through the package's one loop (src/transport/pipeline.ts) and its attempts through the
// transport (its timer, the redirect rule the client follows, the byte limit, the Retry-After reading).
// The Budget is the loop's policy for verify: it counts every hop against the request budget and the
// time budget and refuses one past them, and its retry rule waits out Retry-After on 429/503 when the
// wait fits (reads only: a write is never sent twice). It hands back the response, body read and parsed.
import { DEFAULT_MAX_RESPONSE_BYTES, ResponseTooLarge } from '../body-limit.js';
import { isJsonMediaType, mediaTypeOf } from '../drift/check.js';
import type { FetchLike } from '../fetch.js';
import { Attempt } from '../transport/attempt.js';
import { failureOf, type TransportFailure } from '../transport/failure.js';
import { unfollowedRedirect, type UnfollowedRedirect } from '../transport/redirect.js';
import { type Sent, sendRequest } from '../transport/pipeline.js';
import { retryAfterOf } from '../transport/retry-after.js';

export type { UnfollowedRedirect };

export interface Exchange {
  status: number;
  headers: Headers;
  contentType: string | null;
  body: unknown;
  bodyUnparsable: boolean;
  /** Responses that asked to wait (429/503 with Retry-After) before this one, by status. */
  waitedOn: number[];
  /**
   * Set when the answer is a redirect the rule did not follow (another origin, a write, too many
   * hops): its body is not read, and the answer is never scored as the service's.
   */
  redirect?: UnfollowedRedirect;
}

export class BudgetExhausted extends Error {
  override readonly name = 'BudgetExhausted';
}

/**
 * Nothing answered: the transport's reading of why (src/transport/failure.ts, the one place a failure is
 * read), and for a timeout, the option that set the limit: --timeout-ms, or what --time-budget-ms had left.
 */
export class NoAnswer extends Error {
  override readonly name = 'NoAnswer';
  constructor(
    readonly failure: TransportFailure,
    readonly limitedBy: '--timeout-ms' | '--time-budget-ms',
  ) {
    super(`no answer (${failure.kind})`);
  }
}

export interface BudgetDeps {
  fetch: FetchLike;
  now: () => number;
  /** The wait between attempts, for a test's clock; the retry loop's own when not given. */
  wait?: ((ms: number) => Promise<void>) | undefined;
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

  /**
   * Sends one request through the package's one retry loop (src/transport/pipeline.ts), with the
   * budget as its policy: it counts every hop and refuses one past a budget. The retry rule is
   * verify's: a read (GET, never a write) answered 429 or 503 with a Retry-After that fits what the
   * budgets leave is sent again after that wait.
   */
  async send(url: string, init: Omit<RequestInit, 'signal' | 'redirect'> & { method: string }): Promise<Exchange> {
    const waitedOn: number[] = [];
    let limitedBy: NoAnswer['limitedBy'] = '--timeout-ms';
    let current: Attempt | undefined;
    let remaining = 0;
    let sent: Sent;
    try {
      sent = await sendRequest({
        now: this.deps.now,
        wait: this.deps.wait,
        // The budget as the loop's policy: no attempt goes out past either budget.
        policies: [
          {
            before: () => {
              remaining = this.checkBudgets();
              limitedBy = remaining < this.requestTimeoutMs ? '--time-budget-ms' : '--timeout-ms';
            },
          },
        ],
        open: () => {
          let first = true;
          // One attempt of the transport: one timer for the request, the redirects it follows and the body.
          current = new Attempt({
            fetch: this.deps.fetch,
            url,
            init,
            timeoutMs: Math.min(this.requestTimeoutMs, remaining),
            maxResponseBytes: this.maxResponseBytes,
            // Every hop is a request sent: each counts, and none goes out past a budget.
            onHop: () => {
              if (!first) this.checkBudgets();
              first = false;
              this.requestsUsed += 1;
            },
          });
          return current;
        },
        retry: ({ response }) => {
          const wait = response === undefined ? undefined : retryAfterOf(response);
          const canWait =
            init.method === 'GET' && (response?.status === 429 || response?.status === 503) && wait !== undefined;
          // A wait that would use up the time budget leaves nothing to send the read again with.
          if (!canWait || wait >= this.remainingMs() || this.requestsUsed >= this.maxRequests) return undefined;
          return { waitMs: wait, reason: `HTTP ${response!.status}` };
        },
        retrying: (_retry, { response }) => {
          waitedOn.push(response!.status);
          this.retriesAfterWait += 1;
        },
      });
    } catch (error) {
      throw this.failure(error, current, limitedBy);
    }
    const { response, attempt } = sent;
    try {
      const unfollowed = unfollowedRedirect(response, attempt.url, init.method);
      if (unfollowed) {
        await response.body?.cancel().catch(() => undefined);
        return { ...described(response, undefined, false, waitedOn), redirect: unfollowed };
      }
      return await read(response, waitedOn, attempt);
    } catch (error) {
      throw this.failure(error, attempt, limitedBy);
    } finally {
      attempt.end();
    }
  }

  /** What verify makes of a failure: its own budget's refusal, the byte limit, or no answer. */
  private failure(error: unknown, attempt: Attempt | undefined, limitedBy: NoAnswer['limitedBy']): Error {
    // A budget used up before a hop went out: verify's own, not the transport's.
    if (error instanceof BudgetExhausted) return error;
    // The package's one "too large" (src/body-limit.ts), passed on: the report names verify's option.
    if (error instanceof ResponseTooLarge) return error;
    return new NoAnswer(failureOf(error, attempt), limitedBy);
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

function described(response: Response, body: unknown, bodyUnparsable: boolean, waitedOn: number[]): Exchange {
  return {
    status: response.status,
    headers: response.headers,
    contentType: response.headers.get('content-type'),
    body,
    bodyUnparsable,
    waitedOn: [...waitedOn],
  };
}

/** The body, read by the transport within the byte limit while the attempt lives, and parsed. */
async function read(response: Response, waitedOn: number[], attempt: Attempt): Promise<Exchange> {
  const text = await attempt.readText(response);
  let body: unknown;
  let bodyUnparsable = false;
  if (text.length > 0 && isJsonMediaType(mediaTypeOf(response.headers.get('content-type')))) {
    try {
      body = JSON.parse(text);
    } catch {
      bodyUnparsable = true;
    }
  } else if (text.length > 0) {
    body = text;
  }
  return described(response, body, bodyUnparsable, waitedOn);
}
