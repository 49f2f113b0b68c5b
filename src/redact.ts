// Redaction for everything an error can show: message, URL, problem details, body snippets.
// Tokens and CPF numbers must never reach logs through an error.

const MASK = '[REDACTED]';
// A CPF written bare (11 digits) or formatted (000.000.000-00); the last two digits stay visible.
const BARE_CPF = /(?<![0-9])([0-9]{9})([0-9]{2})(?![0-9])/g;
const FORMATTED_CPF = /(?<![0-9])[0-9]{3}\.[0-9]{3}\.[0-9]{3}-([0-9]{2})(?![0-9])/g;
// A credential where it is one: the value of an Authorization header or field, whatever its scheme.
const AUTHORIZATION = /(\bauthorization"?\s*[:=]\s*"?)(?:(?:bearer|basic|token)\s+)?[^\s"',;]+/gi;
// After `Bearer`, only what is shaped like a token (RFC 6750 b64token): 8+ characters with a digit or
// one of -_~+/, or 24+ characters. English words after "bearer" ("A valid bearer token is required.")
// are not tokens; the tokens the client knows are masked by value, whatever their shape.
const BEARER = /(\bBearer\s+)(?:(?=[A-Za-z0-9._~+/-]*[0-9_~+/-])[A-Za-z0-9._~+/-]{8,}|[A-Za-z0-9._~+/-]{24,})=*/gi;

export function maskDigits(value: string): string {
  return value.length <= 2 ? '*'.repeat(value.length) : '*'.repeat(value.length - 2) + value.slice(-2);
}

/** Masks CPF numbers, bearer credentials and any of the given secrets inside free text. */
export function redactText(text: string, secrets: Iterable<string> = []): string {
  let out = text;
  for (const secret of secrets) {
    // Short strings would mask innocent text; real tokens are long.
    if (secret.length >= 6) out = out.split(secret).join(MASK);
  }
  return out
    .replace(AUTHORIZATION, `$1${MASK}`)
    .replace(BEARER, `$1${MASK}`)
    .replace(FORMATTED_CPF, (_m, last: string) => `***.***.***-${last}`)
    .replace(BARE_CPF, (_m, head: string, last: string) => '*'.repeat(head.length) + last);
}

/** A URL safe to show: DocumentNumber masked to its last two digits, userinfo dropped, secrets masked. */
export function redactUrl(url: string, secrets: Iterable<string> = []): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return redactText(url, secrets);
  }
  parsed.username = '';
  parsed.password = '';
  for (const [name, value] of [...parsed.searchParams]) {
    if (name.toLowerCase() === 'documentnumber') parsed.searchParams.set(name, maskDigits(value));
  }
  return redactText(parsed.toString(), secrets);
}

/** Deep copy of a parsed JSON value with every string redacted. */
export function redactJson<T>(value: T, secrets: Iterable<string> = []): T {
  const list = [...secrets];
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return redactText(node, list);
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([key, inner]) => [key, walk(inner)]));
    }
    return node;
  };
  return walk(value) as T;
}

/** Cuts long bodies (an HTML error page, say) to something a log line can hold. */
export function truncate(text: string, max = 500): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}
