// What a typed method returns: a promise of the data, as before, that can also be asked for what the
// final answer said about the call — `await baas.listPixKeys().withResponse()` gives the data with the
// status, the header fields, the request id and the rate-limit state. Modelled on openai-node's
// APIPromise (`.withResponse()` resolving `{ data, response, request_id }`). The Call that owns the call
// reads the answer (`Call.answered()`); this file only hands it over, and only when asked, so a call
// whose metadata nobody wants pays nothing for it.
import type { RateLimitInfo } from '../logging/rate-limit.js';

/** What the final answer of a successful call said about it; every value masked as an error's fields are. */
export interface ResponseMetadata {
  /** The final answer: its status (200, 204, …) and its header fields (names in lower case). */
  response: { status: number; headers: Readonly<Record<string, string>> };
  /** Its `X-Request-Id`, the id a provider's support asks for. */
  requestId: string | undefined;
  /** What its rate-limit header fields say (`RateLimit`/`RateLimit-Policy` or `X-RateLimit-*`), when sent. */
  rateLimit: RateLimitInfo | undefined;
  /** Attempts sent, retries and a token refresh included. */
  attempts: number;
}

/** `.withResponse()`'s answer: the data the call resolves with, and its metadata. */
export interface WithResponse<T> extends ResponseMetadata {
  /** What the call itself resolves with. */
  data: T;
}

/** What a call settles with inside the client: the data, and a way to read its metadata on demand. */
export interface Answered<T> {
  data: T;
  metadata(): ResponseMetadata;
}

/** What a typed method returns: a Promise of the call's data, with `.withResponse()` for its metadata. */
export interface BaasPromise<T> extends Promise<T> {
  /** The data with what the final answer said: `{ data, response, requestId, rateLimit, attempts }`. */
  withResponse(): Promise<WithResponse<T>>;
}

/**
 * The one BaasPromise: a real Promise (instanceof, await, Promise.all) that settles only through the
 * call: `then`, `catch` and `finally` follow the data, and a call whose promise nobody follows rejects
 * unhandled exactly as a plain promise would.
 */
export class CallPromise<T> extends Promise<T> implements BaasPromise<T> {
  // Promise's own methods (then of a subclass, Promise.resolve) build plain promises, not this class.
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  readonly #answered: Promise<Answered<T>>;
  #data: Promise<T> | undefined;

  constructor(answered: Promise<Answered<T>>) {
    // The base promise is only a shell: it resolves at once, and nobody reads it.
    super((resolve) => resolve(undefined as T));
    this.#answered = answered;
  }

  /** The data with what the final answer said: `{ data, response, requestId, rateLimit, attempts }`. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#answered.then(({ data, metadata }) => ({ data, ...metadata() }));
  }

  // biome-ignore lint/suspicious/noThenProperty: a Promise subclass; its then follows the call's data.
  override then<Fulfilled = T, Rejected = never>(
    onFulfilled?: ((value: T) => Fulfilled | PromiseLike<Fulfilled>) | null,
    onRejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null,
  ): Promise<Fulfilled | Rejected> {
    return this.#dataOnly().then(onFulfilled, onRejected);
  }

  override catch<Rejected = never>(
    onRejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null,
  ): Promise<T | Rejected> {
    return this.#dataOnly().catch(onRejected);
  }

  override finally(onFinally?: (() => void) | null): Promise<T> {
    return this.#dataOnly().finally(onFinally);
  }

  #dataOnly(): Promise<T> {
    this.#data ??= this.#answered.then(({ data }) => data);
    return this.#data;
  }
}
