// Reading a request without trusting it: the bearer token, the Prefer header, a bounded JSON body.

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

/** `Prefer: code=429, example=LastPage`, as Prism reads it. */
export function preference(header: string | null): Preference | undefined {
  if (!header) return undefined;
  const out: Preference = {};
  for (const part of header.split(',')) {
    const [name, value] = part.split('=').map((s) => s.trim());
    if (name === 'code' && value && /^[0-9]{3}$/.test(value)) out.code = Number(value);
    else if (name === 'example' && value) out.example = value;
  }
  return out.code === undefined && out.example === undefined ? undefined : out;
}

export type BodyResult = { ok: true; value: unknown } | { ok: false; reason: string };

export async function readJsonBody(request: Request): Promise<BodyResult> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]*\+json$/.test(type)) {
    return { ok: false, reason: 'The request body must be sent as Content-Type: application/json.' };
  }
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) return tooLarge(request);
  if (!request.body) return { ok: false, reason: 'The request body is empty; it must be a JSON object.' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      return tooLarge(request);
    }
    chunks.push(value);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    return { ok: false, reason: 'The request body is not valid UTF-8.' };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, reason: 'The request body is not valid JSON.' };
  }
}

function tooLarge(request: Request): BodyResult {
  void request.body?.cancel().catch(() => undefined);
  return { ok: false, reason: `The request body is larger than ${MAX_BODY_BYTES} bytes.` };
}
