// The client most users import: typed operations over openapi-fetch, with pre-flight validation,
// typed errors, timeouts, retries, pagination and redaction.
import { BaasError, NetworkError, ResponseError, TimeoutError, ValidationError, type ErrorContext, type OperationName } from '../errors.js';
import { redactUrl } from '../redact.js';
import type { NaturalPersonUpdate, PixKey, PixKeyList, UpdateResult } from '../types.js';
import {
  validateListPixKeysQuery,
  validateNaturalPersonUpdate,
  validateUpdateNaturalPersonQuery,
  type ValidationIssue,
} from '../validation/index.js';
import { resolveOptions, type BaasClientOptions, type ResolvedOptions } from './options.js';
import { walkPixKeys, type PixKeysOptions } from './pagination.js';
import { createRawClient, type RawClient } from './raw.js';
import { errorFromResponse, readSuccessBody } from './responses.js';
import { CallTransport, systemCode } from './transport.js';

const UPDATE_PATH = '/v2/api/baas-onboarding/account/natural-person';
const LIST_PATH = '/v2/api/pix/keys/list-keys';

export interface UpdateNaturalPersonInput {
  /** `Account` query parameter: the customer account number, digits. */
  account: string;
  /** `DocumentNumber` query parameter: the customer's CPF, 11 digits. */
  documentNumber: string;
  body: NaturalPersonUpdate;
  signal?: AbortSignal;
}

export interface ListPixKeysInput {
  limit?: number;
  cursor?: string;
  signal?: AbortSignal;
}

export interface BaasClient {
  /** Resolves with the parsed success body, or undefined for an empty 200 or a 204. */
  updateNaturalPerson(input: UpdateNaturalPersonInput): Promise<UpdateResult | undefined>;
  /** One page of keys. */
  listPixKeys(input?: ListPixKeysInput): Promise<PixKeyList>;
  /** Every key across pages, one page in memory at a time. */
  pixKeys(options?: PixKeysOptions): AsyncIterable<PixKey>;
  /** The underlying openapi-fetch client, with the same auth, User-Agent, timeout and retry. */
  raw: RawClient;
}

// Tokens seen recently, so errors can mask them even if a server echoes one back.
const TOKENS_REMEMBERED = 4;

export function createBaasClient(options: BaasClientOptions): BaasClient {
  const settings = resolveOptions(options);
  const secrets: string[] = [];
  const remember = (token: string): void => {
    if (secrets.includes(token)) return;
    secrets.push(token);
    if (secrets.length > TOKENS_REMEMBERED) secrets.shift();
  };
  const contextFor =
    (operation: OperationName) =>
    (request: Request | undefined): ErrorContext =>
      request ? { operation, method: request.method, url: redactUrl(request.url, secrets) } : { operation };

  const transportFor = (operation: OperationName, signal?: AbortSignal): CallTransport =>
    new CallTransport(
      { fetch: settings.fetch, timeoutMs: settings.timeoutMs, retry: settings.retry, context: contextFor(operation) },
      signal,
    );

  const raw = createRawClient({
    baseUrl: settings.baseUrl,
    token: settings.token,
    userAgent: settings.userAgent,
    onToken: remember,
    fetch: (request) => transportFor('raw').fetch(request),
  });

  async function call<T>(
    operation: OperationName,
    signal: AbortSignal | undefined,
    send: (transport: CallTransport) => Promise<{ response: Response; error?: unknown }>,
    parse: (body: unknown, response: Response, context: () => ErrorContext) => T,
  ): Promise<T> {
    const transport = transportFor(operation, signal);
    // Built only when an error needs it: redacting the URL costs more than the happy path should pay.
    const context = (): ErrorContext => transport.errorContext();
    try {
      const { response, error } = await Promise.race([send(transport), transport.bodyAborted]);
      if (!response.ok) throw errorFromResponse(response, error, { context: context(), secrets });
      const body = response.status === 204 ? undefined : await Promise.race([readSuccessBody(response, { context, secrets }), transport.bodyAborted]);
      return parse(body, response, context);
    } catch (error) {
      throw normalize(error, transport, settings, context(), signal);
    } finally {
      transport.finish();
    }
  }

  function preflight(operation: OperationName, issues: ValidationIssue[]): void {
    if (settings.validate && issues.length > 0) throw new ValidationError(issues, { operation });
  }

  const client: BaasClient = {
    async updateNaturalPerson({ account, documentNumber, body, signal }) {
      const query = { Account: account, DocumentNumber: documentNumber };
      preflight('updateNaturalPerson', [...validateUpdateNaturalPersonQuery(query), ...validateNaturalPersonUpdate(body)]);
      return call(
        'updateNaturalPerson',
        signal,
        (transport) => raw.PUT(UPDATE_PATH, { params: { query }, body, parseAs: 'stream', ...transportOptions(transport) }),
        (parsed) => parsed as UpdateResult | undefined,
      );
    },

    async listPixKeys({ limit, cursor, signal } = {}) {
      const query = { ...(limit !== undefined ? { limit } : {}), ...(cursor !== undefined ? { cursor } : {}) };
      preflight('listPixKeys', validateListPixKeysQuery(query));
      return call(
        'listPixKeys',
        signal,
        (transport) =>
          raw.GET(LIST_PATH, {
            params: { query, header: { 'User-Agent': settings.userAgent } },
            parseAs: 'stream',
            ...transportOptions(transport),
          }),
        (parsed, response, context) => {
          if (!isPixKeyList(parsed)) {
            throw new ResponseError(
              'a key list without a `data` array',
              { status: response.status, contentType: response.headers.get('content-type') ?? undefined },
              context(),
            );
          }
          return parsed;
        },
      );
    },

    pixKeys(options = {}) {
      return walkPixKeys((query) => client.listPixKeys(query), options);
    },

    raw,
  };
  return client;
}

/** The call's own fetch, and a Request built abortable and without automatic redirects. */
function transportOptions(transport: CallTransport) {
  transport.requestIsPrepared = true;
  return { fetch: transport.fetch, signal: transport.signal, redirect: 'manual' } as const;
}

const isPixKeyList = (value: unknown): value is PixKeyList =>
  typeof value === 'object' && value !== null && Array.isArray((value as { data?: unknown }).data);

/** Every failure leaves as a BaasError, except a caller's own abort, which keeps its reason. */
function normalize(error: unknown, transport: CallTransport, settings: ResolvedOptions, context: ErrorContext, signal?: AbortSignal): unknown {
  if (error instanceof BaasError) return error;
  if (signal?.aborted) return signal.reason;
  if (transport.timedOut) return new TimeoutError(settings.timeoutMs, transport.attempts, context);
  return new NetworkError(systemCode(error), transport.attempts, context);
}
