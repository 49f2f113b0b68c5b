// Turns what the server sent into data or into the right error class, tolerantly.
import { BaasApiError, BaasResponseError, type BaasError } from '../errors.js';
import { boundedCopy, MAX_JSON_DEPTH, tooDeepAt } from '../json-bounds.js';
import type { Problem } from '../types.js';
import type { Call } from './call.js';
import { retryAfterOf } from '../transport/retry-after.js';

// The start of a body an error shows (an HTML page, text that is not JSON).
const SNIPPET_CHARACTERS = 500;

const isJsonType = (type: string): boolean => /^application\/([\w.+-]+\+)?json\b/i.test(type) || type === '';
const isHtml = (type: string, text: string): boolean => /html/i.test(type) || /^\s*<(!doctype|html)/i.test(text);

/**
 * What the headers of an answer say about the call, for errors: the request id and `Retry-After`.
 * Rate-limit header fields are read by the call on a final 429 (`call.rateLimit`, loaded lazily) and
 * by the logging code for response events.
 */
export function responseMeta(response: Response): { requestId: string | undefined; retryAfterMs: number | undefined } {
  return {
    requestId: response.headers.get('x-request-id') ?? undefined,
    retryAfterMs: retryAfterOf(response),
  };
}

/** A success body: undefined when empty, parsed JSON otherwise, BaasResponseError when it is not JSON. */
export function parseSuccessBody(response: Response, text: string, call: Call): unknown {
  if (text.trim() === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  const snippet = (): string => call.secrets.bounded(text, SNIPPET_CHARACTERS);
  if (!isJsonType(type))
    throw new BaasResponseError(
      'expected a JSON body',
      { status: response.status, contentType: type, bodySnippet: snippet() },
      call.context(),
    );
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    throw new BaasResponseError(
      'the body is not valid JSON',
      { status: response.status, contentType: type, bodySnippet: snippet() },
      call.context(),
    );
  }
  // Refused here, once, so nothing downstream (validation, masking, a file's JSON.stringify) meets it.
  const deep = tooDeepAt(body);
  if (deep !== undefined)
    throw new BaasResponseError(
      `the body nests deeper than ${MAX_JSON_DEPTH} levels (the package's bound MAX_JSON_DEPTH); nothing of it was used. The contract's bodies nest a few levels: ask the provider what it sent`,
      {
        status: response.status,
        contentType: type,
        problems: [{ part: 'body', pointer: deep, rule: `must not nest deeper than ${MAX_JSON_DEPTH} levels` }],
      },
      call.context(),
    );
  return body;
}

interface UpstreamEnvelope {
  status: 'ERROR';
  error: { errorCode?: unknown; message?: unknown };
}

const isEnvelope = (body: unknown): body is UpstreamEnvelope =>
  typeof body === 'object' &&
  body !== null &&
  (body as { status?: unknown }).status === 'ERROR' &&
  typeof (body as { error?: unknown }).error === 'object' &&
  (body as { error?: unknown }).error !== null;

/** The body of an answer that is not a success: parsed JSON when it parses (whatever its type), its text otherwise. */
function errorBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Builds the error for an answer that is not a success (a 3xx not followed, or a 4xx/5xx). */
export function errorFromResponse(response: Response, rawText: string, call: Call): BaasError {
  const secrets = call.secrets;
  const status = response.status;
  const type = response.headers.get('content-type') ?? '';
  const body = errorBody(rawText);
  const text = typeof body === 'string' ? body : undefined;
  // Masked before it is cut, so that no CPF is cut in half and left unmasked (Secrets.bounded).
  const snippet = text === undefined ? undefined : secrets.bounded(text, SNIPPET_CHARACTERS);
  const meta = responseMeta(response);

  if (status < 400) {
    // A browser-like fetch answers redirect: 'manual' with an opaque redirect (status 0, no Location).
    const where =
      response.type === 'opaqueredirect'
        ? 'a redirect whose target the runtime hides (opaque), not followed'
        : response.headers.get('location')
          ? 'a redirect to another origin or for a non-GET request, not followed'
          : 'an unexpected status';
    return new BaasResponseError(where, { status, contentType: type, bodySnippet: snippet }, call.context());
  }
  if (text !== undefined && text.trim() !== '' && (isHtml(type, text) || /json/i.test(type))) {
    const reason = isHtml(type, text) ? 'an HTML page instead of an API error' : 'an error body that is not valid JSON';
    return new BaasResponseError(reason, { status, contentType: type, bodySnippet: snippet }, call.context());
  }

  let problem: Problem | undefined;
  let code: string | undefined;
  if (isEnvelope(body)) {
    code = typeof body.error.errorCode === 'string' ? body.error.errorCode : undefined;
    const message = typeof body.error.message === 'string' ? body.error.message : undefined;
    problem = { type: 'about:blank', status, title: code ?? 'Upstream error', ...(message ? { detail: message } : {}) };
  } else if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    // RFC 9457: an absent type means about:blank. BaasApiError redacts the problem, member names too.
    // A bounded copy first (src/json-bounds.ts): spreading a 300,000-member body cost seconds.
    const parsed = boundedCopy(body) as Partial<Problem>;
    problem = { ...parsed, type: typeof parsed.type === 'string' ? parsed.type : 'about:blank' };
  } else if (snippet) {
    problem = { type: 'about:blank', status, detail: snippet };
  }

  const requestId = meta.requestId ?? (typeof problem?.correlationId === 'string' ? problem.correlationId : undefined);
  return new BaasApiError(
    { status, problem, code, retryAfterMs: meta.retryAfterMs, rateLimit: call.rateLimit },
    call.context(requestId),
  );
}
