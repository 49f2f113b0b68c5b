// Reading a request without trusting it: the bearer token, the Prefer header, a bounded JSON body.
import { readStreamWithin } from '../body-limit.js';

/** Largest update body read; anything longer is refused unread. */
export const MAX_BODY_BYTES = 64 * 1024;

// RFC 9110 §11.1: the scheme is case-insensitive; the credential is a token68.
const BEARER = /^bearer +([A-Za-z0-9._~+/-]+=*) *$/i;

export function bearerToken(header: string | null): string | undefined {
  return header === null ? undefined : BEARER.exec(header)?.[1];
}

export interface Preference {
  code?: number;
  example?: string;
}

/** `Prefer: code=429, example=LastPage`, as Prism reads it; empty without either. */
export function preference(header: string | null): Preference {
  const out: Preference = {};
  if (!header) return out;
  for (const part of header.split(',')) {
    const [name, value] = part.split('=').map((s) => s.trim());
    if (name === 'code' && value && /^[0-9]{3}$/.test(value)) out.code = Number(value);
    else if (name === 'example' && value) out.example = value;
  }
  return out;
}

/** `tooLarge`: refused for its size alone (413), not for what it holds (400). */
export type BodyResult = { ok: true; value: unknown } | { ok: false; reason: string; tooLarge?: true };

/** What the handler reads of a request: a Request, or the `LightRequest` from `lightRequest`. */
export type SandboxRequest = Pick<Request, 'method' | 'url' | 'headers' | 'body'>;

/**
 * `sandbox.fetch(url, init)`, as the client calls it, for a GET without a body: the method, URL and
 * headers that a Request would hold, without building one (its URL record, AbortSignal and body
 * state cost more than serving a cached page). Anything else, or a URL that does not parse, gets
 * undefined and goes through `new Request`, errors included.
 */
// Every `return undefined` below sends the call through `new Request`, which answers the same, only
// slower: the mutants that send more calls that way cannot change an answer (pages.test.ts compares).
// Stryker disable next-line BlockStatement: see above.
export function lightRequest(input: string | URL, init: RequestInit | undefined): SandboxRequest | undefined {
  const method = init?.method;
  // Stryker disable next-line MethodExpression,StringLiteral: see above.
  if (method !== undefined && method.toUpperCase() !== 'GET') return undefined;
  if (init?.body !== undefined && init.body !== null) return undefined;
  const url = typeof input === 'string' ? input : input.href;
  // `new Request` refuses credentials in the URL: an '@' anywhere sends the call its way.
  // Stryker disable next-line StringLiteral: see above.
  if (url.includes('@') || !URL.canParse(url)) return undefined;
  return { method: 'GET', url, headers: new Headers(init?.headers), body: null };
}

export async function readJsonBody(request: SandboxRequest): Promise<BodyResult> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  // The contract documents `application/json` alone: another JSON media type (merge-patch+json,
  // problem+json) means other semantics, and the provider need not take it, so neither does the sandbox.
  if (type !== 'application/json') {
    return {
      ok: false,
      reason:
        'The request body must be sent as Content-Type: application/json (the only media type the contract documents for it).',
    };
  }
  const read = await readBytes(request, MAX_BODY_BYTES);
  if (read === 'too large')
    return { ok: false, tooLarge: true, reason: `The request body is larger than ${MAX_BODY_BYTES} bytes.` };
  if (read === undefined) return { ok: false, reason: 'The request body is empty; it must be a JSON object.' };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(read);
  } catch {
    return { ok: false, reason: 'The request body is not valid UTF-8.' };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, reason: 'The request body is not valid JSON.' };
  }
}

/**
 * The body's bytes, at most `max` of them: 'too large' as soon as the declared length or the bytes
 * read pass it (the rest is never read), undefined for no body at all.
 */
export async function readBytes(request: SandboxRequest, max: number): Promise<Uint8Array | 'too large' | undefined> {
  // Number(null) is 0: no Content-Length declares nothing.
  const declared = Number(request.headers.get('content-length'));
  if (declared > max) {
    void request.body?.cancel().catch(() => undefined);
    return 'too large';
  }
  if (!request.body) return undefined;
  // The package's one bounded read of a stream (src/body-limit.ts), the client's answers read by it too.
  return (await readStreamWithin(request.body, max)) ?? 'too large';
}
