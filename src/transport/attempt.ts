// One attempt of a request, the same for every part that sends (the client's Call, the token request,
// verify's Budget): its own abort controller, ONE timer that covers the request, the redirects the
// rule follows (redirect.ts) and the body read, the caller's signal linked to it, and the body read
// within a byte limit while it streams (src/body-limit.ts). What a failure of it means is failure.ts.
import { readBytesWithin } from '../body-limit.js';
import type { FetchLike } from '../fetch.js';
import { fetchFollowingRedirects } from './redirect.js';

/** The longest delay Node's timers hold (2^31-1 ms, about 24.8 days); a longer one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export interface AttemptOptions {
  fetch: FetchLike;
  url: string;
  /** Method, headers, body and any other init (a TLS dispatcher); `signal` and `redirect` are the attempt's own. */
  init: Omit<RequestInit, 'signal' | 'redirect'> & { method: string };
  /** For the whole attempt: answer, redirects and body. A longer one than MAX_TIMER_MS is held at it. */
  timeoutMs: number;
  /** The largest body read, in bytes, counted while it streams. */
  maxResponseBytes: number;
  /** The caller's signal: when it aborts, so does the attempt, with its reason. */
  signal?: AbortSignal | undefined;
  /** Told each URL before a request goes there (the first included); throwing stops the attempt there. */
  onHop?: ((url: string, hop: number) => void) | undefined;
}

/**
 * A request header fetch refuses to send: its name or its value holds a character a header cannot carry (a
 * line break, a NUL, a character past U+00FF). Nothing was sent. The message names the header, never its
 * value (an Authorization header holds the token); fetch's own error stays as `cause`.
 */
export class HeaderRefused extends TypeError {
  readonly code = 'ERR_INVALID_HEADER';
  /** Another attempt sends the same header (failure.ts, `incurable`). */
  readonly incurable: string;
  constructor(
    readonly header: string,
    readonly part: 'name' | 'value',
    cause: unknown,
  ) {
    super(`the ${header} header cannot be sent: it ${headerRule(part)}`, { cause });
    this.name = 'HeaderRefused';
    this.incurable = `header ${header} refused`;
  }
}

/** The rule a header's name or value broke, in the words after the header: never the value itself. */
export const headerRule = (part: 'name' | 'value'): string =>
  `has a ${part} with a character an HTTP header cannot carry (a line break, a NUL, or one past U+00FF such as a curly quote, a long dash or an emoji)`;

/**
 * The header of `headers` that fetch refuses, by the runtime's own Headers rule (the one fetch applies), or
 * undefined when it takes them all. Asked only after fetch threw a TypeError, so its rule is never guessed.
 */
export function refusedHeader(headers: HeadersInit | undefined): { name: string; part: 'name' | 'value' } | undefined {
  if (headers === undefined || headers instanceof Headers) return undefined;
  const entries = Array.isArray(headers) ? headers : Object.entries(headers);
  for (const [name, value] of entries as [string, string][]) {
    const takes = (pair: [string, string]) => {
      try {
        new Headers([pair]);
        return true;
      } catch {
        return false;
      }
    };
    if (!takes([name, 'x'])) return { name: String(name), part: 'name' };
    if (!takes([name, value])) return { name, part: 'value' };
  }
  return undefined;
}

export class Attempt {
  /** Where the attempt went last (after the redirects it followed). */
  url: string;
  /** Whether the attempt's own timer ended it. */
  timedOut = false;
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;
  /** Stops the caller's signal from reaching this attempt (set when there is one). */
  private unlink: () => void = () => undefined;

  constructor(private readonly options: AttemptOptions) {
    this.url = options.url;
    const { controller } = this;
    const caller = options.signal;
    // Held at what a timer can hold: past it, Node would fire the timer at once (verify's --timeout and
    // time budget have no upper bound of their own).
    this.timer = setTimeout(
      () => {
        this.timedOut = true;
        this.controller.abort(new DOMException('attempt timed out', 'TimeoutError'));
      },
      Math.min(options.timeoutMs, MAX_TIMER_MS),
    );
    if (caller?.aborted) controller.abort(caller.reason);
    else if (caller) {
      const onAbort = () => controller.abort(caller.reason);
      caller.addEventListener('abort', onAbort);
      this.unlink = () => caller.removeEventListener('abort', onAbort);
    }
  }

  /** The attempt's signal: aborted by its timer or by the caller. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The attempt's time limit, in ms. */
  get timeoutMs(): number {
    return this.options.timeoutMs;
  }

  /**
   * Sends the request through the redirect rule; resolves with the answer the rule keeps. A header fetch
   * refuses to send (its TypeError, "Cannot convert argument to a ByteString") rejects as a HeaderRefused
   * naming the header, never its value: the caller's input, not a network failure.
   */
  async send(): Promise<Response> {
    const { fetch, url, init, onHop } = this.options;
    try {
      return await fetchFollowingRedirects(
        fetch,
        url,
        { ...init, signal: this.signal, redirect: 'manual' },
        (hop, index) => {
          onHop?.(hop, index);
          this.url = hop;
        },
      );
    } catch (error) {
      const refused = error instanceof TypeError ? refusedHeader(init.headers) : undefined;
      throw refused === undefined ? error : new HeaderRefused(refused.name, refused.part, error);
    }
  }

  /**
   * The answer's body, counted while it streams: past `maxResponseBytes` the read stops, the rest is
   * cancelled, and it rejects with ResponseTooLarge (src/body-limit.ts). It races the attempt's abort, so
   * the timer and the caller cut a slow body short.
   */
  readBytes(response: Response): Promise<Uint8Array> {
    return this.whileAlive(readBytesWithin(response, this.options.maxResponseBytes));
  }

  /** The body as UTF-8 text (as `Response.text()` decodes it), read as readBytes reads it. */
  async readText(response: Response): Promise<string> {
    return new TextDecoder().decode(await this.readBytes(response));
  }

  /**
   * Races `work` against the attempt's abort. Node's fetch can leave a body read pending after its
   * attempt was aborted (a 421 re-sent on a new connection, a body that fails to decompress).
   */
  whileAlive<T>(work: Promise<T>): Promise<T> {
    const signal = this.signal;
    if (signal.aborted) {
      work.catch(() => undefined);
      return Promise.reject(signal.reason);
    }
    let onAbort: () => void = () => undefined;
    const aborted = new Promise<never>((_resolve, reject) => {
      onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort);
    });
    return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
  }

  /** Ends the attempt: its timer stops and the caller's signal no longer reaches it. */
  end(): void {
    clearTimeout(this.timer);
    this.unlink();
  }
}
