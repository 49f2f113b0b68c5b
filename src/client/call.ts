// One object owns a call's whole life, typed operations and `raw` alike: the caller's signal, the
// bearer token, the retry decision (retry.ts), and the one place where any failure becomes a BaasError.
// Each attempt is sent through the transport (src/transport/): its timer and abort controller, the
// redirect rule, the body read within maxResponseBytes, and what a failure means are the transport's,
// shared with the token request and verify. Nothing outside this class sets its state.
//
// Where features plug in, each at one place:
// - logs and events: `observer` (attempt, response, retry, error, done), called from `attempt()`,
//   `answered()`, `retrying()`, `fail()` and `run()`, with the redacted `CallEvent` (src/call-events.ts);
// - tracing: `tracing`, asked once per call in `run()` for that call's own observer of the same events;
// - a TLS fetch (undici Agent): `ClientState.fetch`; other fetch init: `ClientState.init`;
// - the one-time 401 token refresh: in `attemptUntilAnswered`, where a 401 is seen;
// - rate-limit headers on a final 429 (`rateLimit`, read by responses.ts), response validation:
//   `read`, the caller's reader of the final response (see baas-client.ts `readJson`).
import { DEFAULT_MAX_RESPONSE_BYTES } from '../body-limit.js';
import type { CallEvent, CallObserver, CallStart, CallTracing } from '../call-events.js';
import { BaasError, type ErrorContext, type CallOperation } from '../errors.js';
import { parseRateLimit, type RateLimitInfo } from '../logging/rate-limit.js';
import type { Secrets } from '../redact.js';
import type { FetchLike } from '../fetch.js';
import { Attempt } from '../transport/attempt.js';
import { clientError, failureOf, systemCode } from '../transport/failure.js';
import { type AttemptPolicy, type Retry, sendRequest, type Tried } from '../transport/pipeline.js';
import { retryAfterOf } from '../transport/retry-after.js';
import { shouldRetry, type RetrySettings } from './retry.js';
import { resolveToken, type TokenSource } from './token.js';
import type { Answered, ResponseMetadata } from './with-response.js';

/** What every call of one client shares. */
export interface ClientState {
  fetch: FetchLike;
  token: TokenSource;
  /** `Bearer …`, built once when the token is a fixed string. */
  authorization: string | undefined;
  /** The client's one holder of its secrets (the token source's, the tokens seen), through which every error and event is built. */
  readonly secrets: Secrets;
  remember(token: string): void;
  /** Extra fetch init for every attempt (e.g. `{ dispatcher }` for client certificates). */
  init?: Record<string, unknown> | undefined;
  observer?: CallObserver | undefined;
  /** Begins each call's own observer (src/tracing/): its span, traceparent and duration. */
  tracing?: CallTracing | undefined;
}

type Hook = Exclude<keyof CallObserver, 'drift'>;

/** What one call sends. `headers` is the call's own object (the call sets Authorization on it). */
export interface CallRequest {
  operation: CallOperation;
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Replayable: a retry sends it again. */
  body?: string | ArrayBuffer | undefined;
}

/** Reads the final response while its attempt is still alive (timer armed, abortable). */
export type Reader<T> = (response: Response, call: Call) => Promise<T>;

/** Everything one `Call` is made of: the client's shared state, the request, and how to send it. */
export interface CallInit {
  client: ClientState;
  request: CallRequest;
  /** Each attempt's time limit, in milliseconds. */
  timeoutMs: number;
  /** When to try again, or `false` for one attempt only. */
  retry: RetrySettings | false;
  /** The caller's signal: aborting it ends the call with its reason. */
  signal?: AbortSignal | undefined;
  /** The most bytes any answer's body may have; default DEFAULT_MAX_RESPONSE_BYTES. */
  maxResponseBytes?: number | undefined;
  /** The caller's hooks around each attempt (a batch's pacing), run by the one retry loop. */
  policies?: readonly AttemptPolicy[] | undefined;
}

const REQUEST_ID = 'x-request-id';

export class Call {
  private attempts = 0;
  private readonly started = Date.now();
  private attemptStarted = 0;
  /** The attempt sent last (src/transport/attempt.ts): its timer, its abort, its body read. */
  private current: Attempt | undefined;
  /** Where the current attempt went (after same-origin redirects). */
  private url: string;
  /** The response being returned to the reader, once there is one. */
  private response: Response | undefined;
  /** The last request id of a response that was retried. */
  private earlierRequestId: string | undefined;
  /** The token sent with the current attempt, when it came from a function. */
  private sentToken: string | undefined;
  /** Whether the token was already renewed after a 401 (it is, once per call). */
  private renewed = false;
  /** What a caller's policy refused an attempt with: the caller's own error, passed on as it is. */
  private refusal: { error: unknown } | undefined;
  /** What the rate-limit header fields of a final 429 say. */
  rateLimit: RateLimitInfo | undefined;
  /** The numbers this call carries (its DocumentNumber): masked in any spelling in what it shows. */
  private readonly carried: readonly string[];
  /** This call's own observer (its span), when the client traces. */
  private traced: CallObserver | undefined;

  private readonly client: ClientState;
  private readonly request: CallRequest;
  private readonly timeoutMs: number;
  private readonly retry: RetrySettings | false;
  private readonly signal: AbortSignal | undefined;
  private readonly maxResponseBytes: number;
  private readonly policies: readonly AttemptPolicy[];

  constructor(init: CallInit) {
    this.client = init.client;
    this.request = init.request;
    this.timeoutMs = init.timeoutMs;
    this.retry = init.retry;
    this.signal = init.signal;
    this.maxResponseBytes = init.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.policies = init.policies ?? [];
    this.url = init.request.url;
    this.carried = carriedNumbers(init.request.url);
  }

  /** Runs the call to its end: data from `read`, or a BaasError (a caller's abort keeps its reason). */
  async run<T>(read: Reader<T>): Promise<T> {
    try {
      const traced = this.client.tracing?.(this.start());
      this.traced = traced instanceof Promise ? await traced : traced;
      const response = await this.attemptUntilAnswered();
      const data = await this.current!.whileAlive(read(response, this));
      this.notify('done', () => this.event({ status: response.status, durationMs: Date.now() - this.started }));
      return data;
    } catch (error) {
      throw this.fail(error);
    } finally {
      this.current?.end();
    }
  }

  /** Runs the call to its end like `run`, with the final answer's metadata readable on demand (`.withResponse()`). */
  async answer<T>(read: Reader<T>): Promise<Answered<T>> {
    const data = await this.run(read);
    return { data, metadata: () => this.metadata() };
  }

  /**
   * What the final answer said: status, header fields, request id, rate-limit state. Masked and bounded as
   * an error's fields are (a provider may echo the token or the CPF in a header, or send a huge one).
   */
  private metadata(): ResponseMetadata {
    const response = this.response!;
    const secrets = this.secrets;
    // A plain object (JSON.stringify shows it): names lower case, a name sent twice (set-cookie, or two
    // that mask alike) joined with ", " as HTTP joins them; Object.fromEntries keeps `__proto__` a member.
    const fields = new Map<string, string>();
    response.headers.forEach((value, name) => {
      const shown = secrets.bounded(name);
      const masked = secrets.bounded(value);
      const earlier = fields.get(shown);
      fields.set(shown, earlier === undefined ? masked : `${earlier}, ${masked}`);
    });
    const headers: Record<string, string> = Object.fromEntries(fields);
    const requestId = response.headers.get(REQUEST_ID);
    const rateLimit = parseRateLimit(response.headers);
    return {
      response: { status: response.status, headers },
      requestId: requestId === null ? undefined : secrets.bounded(requestId),
      rateLimit: rateLimit === undefined ? undefined : secrets.json(rateLimit),
      attempts: this.attempts,
    };
  }

  /** Operation, method, redacted URL, attempts and last request id: the context of any error of this call. */
  context(requestId?: string): ErrorContext {
    return {
      operation: this.request.operation,
      method: this.request.method,
      url: this.secrets.url(this.url),
      attempts: this.attempts,
      requestId: requestId ?? this.response?.headers.get(REQUEST_ID) ?? this.earlierRequestId,
      secrets: this.secrets,
    };
  }

  /** The client's secrets (tokens, the client secret) and the numbers this call carries. */
  get secrets(): Secrets {
    return this.client.secrets.with(this.carried);
  }

  /** The answer's body as UTF-8 text, read within `maxResponseBytes` (see readBytes). */
  async readText(response: Response): Promise<string> {
    return new TextDecoder().decode(await this.readBytes(response));
  }

  /**
   * The answer's body, counted while it streams (the transport's read): past `maxResponseBytes` the
   * read stops, the rest is cancelled, and the call ends with a BaasResponseError naming the limit. Readers
   * call it while the attempt lives, so its timer and abort still cut a slow body short.
   */
  async readBytes(response: Response): Promise<Uint8Array> {
    return this.current!.readBytes(response);
  }

  /**
   * The call's attempts, through the package's one retry loop (src/transport/pipeline.ts): the loop
   * owns the count, the waits and the end; the call gives it each attempt (token, Authorization, the
   * attempt's event), the retry decision (`shouldRetry`, and the one 401 token refresh) and the
   * caller's policies (a batch's pacing).
   */
  private async attemptUntilAnswered(): Promise<Response> {
    const { method, headers, body } = this.request;
    const policies = this.policies.map((policy) => this.guarded(policy));
    const sent = await sendRequest({
      signal: this.signal,
      policies: [{ after: (tried) => this.tried(tried) }, ...policies],
      open: async () => {
        if (this.client.authorization !== undefined) headers.Authorization = this.client.authorization;
        else {
          this.sentToken = await this.token();
          headers.Authorization = `Bearer ${this.sentToken}`;
        }
        // The caller may have given up while the token was fetched: no attempt's controller heard it.
        this.signal?.throwIfAborted();
        return this.attempt({ ...this.client.init, method, headers, body: body ?? null });
      },
      retry: (tried, elapsedMs) => this.retryOf(tried, elapsedMs),
      retrying: ({ waitMs, reason }, tried) =>
        this.notify('retry', () => this.event({ waitMs, reason, status: tried.response?.status })),
      dropped: (response) => {
        this.earlierRequestId = response.headers.get(REQUEST_ID) ?? this.earlierRequestId;
      },
    });
    const { response } = sent;
    this.current = sent.attempt;
    if (response.status === 429) this.rateLimit = parseRateLimit(response.headers);
    this.response = response;
    return response;
  }

  /** The response event of each answer. */
  private tried(tried: Tried): void {
    if (tried.response !== undefined) this.answered(tried.response);
  }

  /**
   * Whether to send the call again: once after a 401 whose token the source can drop (whatever the
   * retry settings: a second 401 is the caller's BaasApiError), else as `shouldRetry` decides.
   */
  private retryOf(tried: Tried, elapsedMs: number): Retry | undefined {
    const { method } = this.request;
    const { response } = tried;
    const source = this.client.token;
    if (response?.status === 401 && !this.renewed && typeof source === 'function' && source.invalidate) {
      this.renewed = true;
      source.invalidate(this.sentToken);
      return { waitMs: 0, reason: 'token refused (401)' };
    }
    if (response === undefined) {
      const failure = this.current?.timedOut ? 'timeout' : 'network';
      const waitMs = shouldRetry(
        { attempt: tried.attempt, method, failure, elapsedMs, idempotencyKey: this.idempotencyKey() },
        this.retry,
      );
      const code = systemCode(tried.error);
      return waitMs === undefined ? undefined : { waitMs, reason: `${failure}${code ? ` ${code}` : ''}` };
    }
    if (!this.retry || response.ok) return undefined;
    const waitMs = shouldRetry(
      {
        attempt: tried.attempt,
        method,
        status: response.status,
        retryAfterMs: retryAfterOf(response),
        elapsedMs,
        idempotencyKey: this.idempotencyKey(),
      },
      this.retry,
    );
    return waitMs === undefined ? undefined : { waitMs, reason: `HTTP ${response.status}` };
  }

  /** A caller's policy whose refusal (a limiter's error, a stop) reaches the caller as it was thrown. */
  private guarded(policy: AttemptPolicy): AttemptPolicy {
    if (policy.before === undefined) return policy;
    const before = policy.before.bind(policy);
    return {
      stop: policy.stop,
      after: policy.after?.bind(policy),
      before: async (attempt, context) => {
        try {
          await before(attempt, context);
        } catch (error) {
          this.refusal = { error };
          throw error;
        }
      },
    };
  }

  private token(): Promise<string> {
    return resolveToken(this.client.token, this.client.secrets, this.client.remember, () => this.context());
  }

  /** Starts an attempt through the transport (its controller and timer): counted, and told to the observers. */
  private attempt(init: Omit<RequestInit, 'signal' | 'redirect'> & { method: string }): Attempt {
    this.attempts += 1;
    this.attemptStarted = Date.now();
    const attempt = new Attempt({
      fetch: this.client.fetch,
      url: this.request.url,
      init,
      timeoutMs: this.timeoutMs,
      maxResponseBytes: this.maxResponseBytes,
      signal: this.signal,
      // Errors and events name where the call really went.
      onHop: (url) => {
        this.url = url;
      },
    });
    this.current = attempt;
    this.notify('attempt', () => {
      // Events show nothing secret: the request headers go without Authorization.
      const { Authorization: _credential, ...headers } = this.request.headers;
      return this.event({ headers });
    });
    return attempt;
  }

  private answered(response: Response): void {
    this.notify('response', () =>
      this.event({
        status: response.status,
        requestId: response.headers.get(REQUEST_ID) ?? undefined,
        responseHeaders: response.headers,
      }),
    );
  }

  /** Tells the client's observer and this call's own of an event, built only when one of them listens. */
  private notify(hook: Hook, build: () => CallEvent): void {
    const { observer } = this.client;
    const shared = observer?.[hook];
    const own = this.traced?.[hook];
    if (!shared && !own) return;
    const event = build();
    shared?.call(observer, event, this.carried);
    own?.call(this.traced, event, this.carried);
  }

  /** What tracing is told of the call as it begins; its URL is redacted only if asked for (tracing is often off). */
  private start(): CallStart {
    const { operation, method, headers } = this.request;
    const at = this.url;
    const secrets = this.secrets;
    return {
      operation,
      method,
      get url() {
        return secrets.url(at);
      },
      headers,
      secrets,
    };
  }

  /** The event of this moment; its URL (the one now) is redacted on first read, as not every observer reads it. */
  private event(extra: Partial<CallEvent> = {}): CallEvent {
    const { operation, method } = this.request;
    const at = this.url;
    const secrets = this.secrets;
    let shown: string | undefined;
    return {
      operation,
      method,
      get url() {
        shown ??= secrets.url(at);
        return shown;
      },
      attempt: this.attempts,
      durationMs: Date.now() - this.attemptStarted,
      ...extra,
    };
  }

  /** Whether the call carries an idempotency key (shouldRetry asks only for a method that is not idempotent). */
  private idempotencyKey(): boolean {
    return Object.keys(this.request.headers).some((name) => name.toLowerCase() === 'idempotency-key');
  }

  /** The single place where a failure becomes what the caller sees. */
  private fail(error: unknown): unknown {
    // What the transport makes of it: the caller's abort reason, a BaasTimeoutError, a BaasResponseError over
    // the byte limit, or a BaasNetworkError.
    const outcome =
      error instanceof BaasError || (this.refusal !== undefined && this.refusal.error === error)
        ? error
        : clientError(failureOf(error, this.current, this.signal), this.context());
    // The error event's duration runs from the call's start.
    this.notify('error', () =>
      this.event({
        error: outcome,
        durationMs: Date.now() - this.started,
        ...(outcome instanceof BaasError ? { requestId: outcome.requestId } : {}),
      }),
    );
    return outcome;
  }
}

/** The DocumentNumber values of a request URL (whatever the parameter's case). */
function carriedNumbers(url: string): string[] {
  const query = url.indexOf('?');
  if (query === -1) return [];
  const numbers: string[] = [];
  for (const [name, value] of new URLSearchParams(url.slice(query + 1)))
    if (name.toLowerCase() === 'documentnumber' && value !== '') numbers.push(value);
  return numbers;
}
