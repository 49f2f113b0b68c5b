// The client most users import: one method per operation of the spec, each a thin layer over the
// generated operation table (method, path, parameters) and the call owner (call.ts), which does the
// sending, timeouts, retries, redirects and error classification for every call alike.
import { BaasResponseError, BaasValidationError } from '../errors.js';
import { heldSecrets, holdClientSecrets, type Secrets } from '../redact.js';
import type { OperationName } from '../generated/operations.js';
import { answerCheck, type AnswerCheck } from '../drift/answer.js';
import { callTracing } from '../tracing/otel.js';
import type { NaturalPersonUpdate, PixKey, PixKeyList, UpdateResult } from '../types.js';
import { issueAt, preflightUpdate, validateListPixKeysQuery, type ValidationIssue } from '../validation/index.js';
import { buildRequest, type RequestInput } from '../validation/request.js';
import { Call, type ClientState, type Reader } from './call.js';
import type { BaasEventListener } from '../logging/event-log.js';
import type { BaasEventType } from '../logging/events.js';
import { clientEvents } from './events.js';
import {
  CALL_OPTION_MISTAKES,
  CALL_OPTION_RULES,
  callSettings,
  PAGE_OPTION_RULES,
  resolveOptions,
  type BaasClientOptions,
  type CallOptions,
} from './options.js';
import { walkPages, type PixKeysOptions } from './pagination.js';
import { ACCEPT, createCallingRawClient, type RawClient } from './raw.js';
import { errorFromResponse, parseSuccessBody } from './responses.js';
import { CallPromise, type Answered, type BaasPromise } from './with-response.js';
import { misspeltMembers } from '../words.js';
import { AS_GIVEN, checkOptions, type OptionRules, refuseMistakenMembers } from '../option-rules.js';

/** The argument of `updateNaturalPerson`: who (`account`, `documentNumber`), what (`body`), and the per-call options. */
export interface UpdateNaturalPersonInput extends CallOptions {
  /** `Account` query parameter: the customer account number, digits. */
  account: string;
  /** `DocumentNumber` query parameter: the customer's CPF, 11 digits. */
  documentNumber: string;
  /** The new values of the customer's data (the request body); checked against the contract before sending. */
  body: NaturalPersonUpdate;
}

/** The argument of `listPixKeys`: one page's size and cursor, and the per-call options. */
export interface ListPixKeysInput extends CallOptions {
  /** Keys on the page (the `limit` query parameter), within the contract's bounds. Default: the server's. */
  limit?: number;
  /** The previous page's `cursor.next`, as received; omit it for the first page. */
  cursor?: string;
}

/** The typed client `createBaasClient` returns: the contract's operations, `pixKeys()`, `raw`, `on` and `close`. */
export interface BaasClient {
  /**
   * Resolves with the parsed success body, or undefined for an empty 200 or a 204;
   * `.withResponse()` adds the status, header fields, request id and rate-limit state.
   */
  updateNaturalPerson(input: UpdateNaturalPersonInput): BaasPromise<UpdateResult | undefined>;
  /** One page of keys; `.withResponse()` adds the status, header fields, request id and rate-limit state. */
  listPixKeys(input?: ListPixKeysInput): BaasPromise<PixKeyList>;
  /** Every key across pages, one page in memory at a time. */
  pixKeys(options?: PixKeysOptions): AsyncIterable<PixKey>;
  /** The underlying openapi-fetch client, with the same auth, User-Agent, timeout and retry. */
  raw: RawClient;
  /**
   * Listens to `request` (each attempt sent), `response`, `retry` (its wait and why), `error` and
   * `token` events, and `drift` (with `validateResponses: 'warn'`): the objects the logger gets, redacted. Returns the function that stops it.
   */
  on<T extends BaasEventType>(type: T, listener: BaasEventListener<T>): () => void;
  /** Releases what the client holds open: the connections of its `tls` agent. */
  close(): Promise<void>;
}

// Each operation's input, declared once (src/option-rules.ts): tsc fails here when an input gains or loses
// a member. Its names are the ones a member in other letters is checked against; the values are the
// contract's to check (preflight) and the call options' (CALL_OPTION_RULES, in callSettings).
const INPUT_RULES = {
  updateNaturalPerson: {
    account: AS_GIVEN,
    documentNumber: AS_GIVEN,
    body: AS_GIVEN,
    ...CALL_OPTION_RULES,
  } satisfies OptionRules<UpdateNaturalPersonInput>,
  listPixKeys: { limit: AS_GIVEN, cursor: AS_GIVEN, ...CALL_OPTION_RULES } satisfies OptionRules<ListPixKeysInput>,
} as const;

/**
 * A member named as the operation takes one, but in other letters: `{ Account, DocumentNumber }` (the
 * contract's query names) for `{ account, documentNumber }` would otherwise be ignored and reported as
 * "Account is required". Other members are left alone: spreading a wider object (a sandbox account with
 * its accountId) is fine. Checked whatever `validate` says: a mistake in the call, not a contract rule.
 */
function misspeltInput(operation: keyof typeof INPUT_RULES, input: object, secrets: Secrets): void {
  // A per-call option named wrongly (`timeoutMS`, `abortSignal`, `maxAttempts` beside `retry`): an options
  // mistake, as the client's own. Any other member is left alone: it may be the caller's data.
  const inputs = Object.keys(INPUT_RULES[operation]);
  refuseMistakenMembers(operation, input, CALL_OPTION_RULES, { ...CALL_OPTION_MISTAKES, others: inputs });
  const issues = misspeltMembers(input, Object.keys(INPUT_RULES[operation]), { maxEdits: 0 }).map(({ given, meant }) =>
    issueAt(given, `is not an input of ${operation}; did you mean ${meant}?`, `"${given}"`),
  );
  if (issues.length > 0) throw new BaasValidationError(issues, { operation, secrets });
}

type Params = Pick<RequestInput, 'query' | 'body'>;

/**
 * The client of the contract: every call is checked before it is sent, sent with timeouts, retries, a byte
 * limit and the token, and masked in everything it shows. Its options are checked here, naming the option.
 */
export function createBaasClient(options: BaasClientOptions): BaasClient {
  const settings = resolveOptions(options);
  // The client's one holder of its secrets: every error, event, log line, span text and
  // `.withResponse()` field of this client is built through it (src/redact.ts's Secrets), and so is
  // every line the command line prints of its work (clientSecrets).
  const { secrets, remember } = heldSecrets(settings.token);
  const state: ClientState = {
    fetch: settings.fetch,
    token: settings.token,
    authorization: typeof settings.token === 'string' ? `Bearer ${settings.token}` : undefined,
    secrets,
    // Spans and the duration metric when the application has @opentelemetry/api and an SDK.
    tracing: callTracing(),
    remember,
  };
  const baseHeaders: Record<string, string> = { Accept: ACCEPT, 'User-Agent': settings.userAgent };
  const check = answerCheck(options.validateResponses, options.onDrift, state);
  const readUpdate = (response: Response, call: Call) =>
    readJson(response, call, check) as Promise<UpdateResult | undefined>;
  const readList = (response: Response, call: Call) => readPixKeyList(response, call, check);

  /** Sends one operation of the table through a new Call and reads its answer with `read`. */
  function send<T>(
    name: OperationName,
    params: Params,
    callOptions: CallOptions,
    read: Reader<T>,
  ): Promise<Answered<T>> {
    // The caller's header fields over the client's own, all checked as HTTP by the builder; the token is
    // the Call's to set, so a caller's Authorization is dropped.
    const built = buildRequest(name, {
      baseUrl: settings.baseUrl,
      ...params,
      headers: { ...baseHeaders, ...callOptions.headers },
      secrets,
    });
    for (const header of Object.keys(built.headers))
      if (header.toLowerCase() === 'authorization') delete built.headers[header];
    const request = { operation: name, method: built.method, url: built.url, headers: built.headers, body: built.body };
    const { signal, policies } = callOptions;
    return new Call({ client: state, request, ...callSettings(settings, callOptions, name), signal, policies }).answer(
      read,
    );
  }

  function preflight(operation: OperationName, issues: ValidationIssue[]): void {
    if (settings.validate && issues.length > 0) throw new BaasValidationError(issues, { operation, secrets });
  }

  const client: BaasClient = {
    updateNaturalPerson(input) {
      return new CallPromise(
        (async () => {
          misspeltInput('updateNaturalPerson', input, secrets);
          const { query, body, issues } = preflightUpdate(
            { Account: input.account, DocumentNumber: input.documentNumber },
            input.body,
          );
          preflight('updateNaturalPerson', issues);
          return send('updateNaturalPerson', { query, body }, input, readUpdate);
        })(),
      );
    },

    listPixKeys(input = {}) {
      return new CallPromise(
        (async () => {
          misspeltInput('listPixKeys', input, secrets);
          const query = { limit: input.limit, cursor: input.cursor };
          preflight('listPixKeys', validateListPixKeysQuery(withoutUndefined(query)));
          return send('listPixKeys', { query }, input, readList);
        })(),
      );
    },

    pixKeys(pageOptions = {}) {
      // At the call, before any page: a maxPages of the wrong kind would otherwise read no page at all.
      checkOptions('pixKeys', pageOptions, PAGE_OPTION_RULES, CALL_OPTION_MISTAKES);
      return walkPages((query) => client.listPixKeys(query), pageOptions);
    },

    raw: createCallingRawClient(settings.baseUrl, state, settings),
    on: clientEvents(state, settings.logging).on,
    close: settings.close,
  };
  holdClientSecrets(client, secrets);
  return client;
}

const withoutUndefined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== undefined)) as T;

/**
 * The answer of a typed operation: the parsed success body (undefined when empty or 204), or the
 * error an answer that is not a success stands for. With `validateResponses` on, `check` sees every
 * answer here first (and hands back the body if it parsed it).
 */
async function readJson(response: Response, call: Call, check?: AnswerCheck): Promise<unknown> {
  // A 204's body is null: its text is '', which parses as undefined. Read within maxResponseBytes,
  // error bodies too.
  const text = await call.readText(response);
  const checked = check && (await check(response, text, call));
  if (!response.ok) throw errorFromResponse(response, text, call);
  return checked ? checked.body : parseSuccessBody(response, text, call);
}

async function readPixKeyList(response: Response, call: Call, check?: AnswerCheck): Promise<PixKeyList> {
  const parsed = await readJson(response, call, check);
  if (!isPixKeyList(parsed)) {
    throw new BaasResponseError(
      'a key list without a `data` array',
      { status: response.status, contentType: response.headers.get('content-type') ?? undefined },
      call.context(),
    );
  }
  return parsed;
}

const isPixKeyList = (value: unknown): value is PixKeyList =>
  typeof value === 'object' && value !== null && Array.isArray((value as { data?: unknown }).data);
