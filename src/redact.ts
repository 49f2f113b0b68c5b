// Redaction for everything an error can show: message, URL, problem details, body snippets.
// Tokens and CPF numbers must never reach logs through an error.

const MASK = '[REDACTED]';
// A CPF in any of its usual spellings: 11 digits bare, or in groups of 3, 3, 3 and 2 with a dot, a
// dash or a space between each (529.982.247-25, 529 982 247 25, 529.982.247.25), or with only the
// check digits set apart (529982247-25). The last two digits stay visible, and the separators too.
// The fraction of a decimal number (a coordinate's 0.12345678901) is not one, nor an E.164 phone
// number (+12025550123).
const CPF = /(?<![0-9+])(?<![0-9][.])[0-9]{3}(?:[0-9]{6}|[.\- ][0-9]{3}[.\- ][0-9]{3})[.\- ]?[0-9]{2}(?![0-9])/g;
// The numbers a call carried (its DocumentNumber) are masked in any spelling at all: their digits
// in order with up to this many characters that are not letters or digits between two of them.
const MAX_CARRIED_GAP = 3;
// Deeper than this, a JSON value is dropped rather than walked (a hostile body can nest without end).
const MAX_JSON_DEPTH = 64;
const TOO_DEEP = '[too deep]';
// A credential where it is one: the value of an Authorization header or field, whatever its scheme.
const AUTHORIZATION = /(\bauthorization"?\s*[:=]\s*"?)(?:(?:bearer|basic|token)\s+)?[^\s"',;]+/gi;
// After `Bearer`, only what is shaped like a token (RFC 6750 b64token): 8+ characters with a digit or
// one of -_~+/, or 24+ characters. English words after "bearer" ("A valid bearer token is required.")
// are not tokens; the tokens the client knows are masked by value, whatever their shape.
const BEARER = /(\bBearer\s+)(?:(?=[A-Za-z0-9._~+/-]*[0-9_~+/-])[A-Za-z0-9._~+/-]{8,}|[A-Za-z0-9._~+/-]{24,})=*/gi;

export function maskDigits(value: string): string {
  return value.length <= 2 ? '*'.repeat(value.length) : '*'.repeat(value.length - 2) + value.slice(-2);
}

/** Every digit but the last two masked; separators kept, so the shape of what was masked stays. */
const maskAllButLastTwo = (match: string): string => {
  let seen = 0;
  const digits = match.replace(/[^0-9]/g, '').length;
  return match.replace(/[0-9]/g, (digit) => (++seen <= digits - 2 ? '*' : digit));
};

/** A CPF-like secret (11 digits once its dots, dashes and spaces are gone): its digits, else undefined. */
function carriedNumber(secret: string): string | undefined {
  const digits = secret.replace(/[.\- ]/g, '');
  return /^[0-9]{11}$/.test(digits) ? digits : undefined;
}

const carriedPattern = (digits: string): RegExp =>
  new RegExp(digits.split('').join(`[^0-9A-Za-z]{0,${MAX_CARRIED_GAP}}`), 'g');

/**
 * Masks CPF numbers (any usual spelling), bearer credentials and the given secrets inside free text.
 * A secret that is a CPF-like number (a DocumentNumber a call carried) is masked in any spelling;
 * any other secret by its exact value.
 */
export function redactText(text: string, secrets: Iterable<string> = []): string {
  let out = text;
  for (const secret of secrets) {
    const number = carriedNumber(secret);
    if (number !== undefined) out = out.replace(carriedPattern(number), maskAllButLastTwo);
    // Short strings would mask innocent text; real tokens are long.
    else if (secret.length >= 6) out = out.split(secret).join(MASK);
  }
  return out.replace(AUTHORIZATION, `$1${MASK}`).replace(BEARER, `$1${MASK}`).replace(CPF, maskAllButLastTwo);
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

/**
 * Deep copy of a parsed JSON value with every string redacted, member names included (a provider
 * may key an object by a CPF or a token). Two names that redact alike are told apart by a suffix.
 */
export function redactJson<T>(value: T, secrets: Iterable<string> = []): T {
  const list = [...secrets];
  const walk = (node: unknown, depth: number): unknown => {
    if (typeof node === 'string') return redactText(node, list);
    if (!node || typeof node !== 'object') return node;
    if (depth >= MAX_JSON_DEPTH) return TOO_DEEP;
    if (Array.isArray(node)) return node.map((item) => walk(item, depth + 1));
    return redactMembers(node as Record<string, unknown>, list, (inner) => walk(inner, depth + 1));
  };
  return walk(value, 0) as T;
}

/**
 * A copy of an object with each member name redacted and each value mapped. Names are defined, not
 * assigned, so a member named `__proto__` stays a member.
 */
export function redactMembers(
  node: Record<string, unknown>,
  secrets: readonly string[],
  map: (value: unknown, name: string) => unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(node)) {
    if (inner === undefined) continue;
    const base = redactText(key, secrets);
    let name = base;
    for (let n = 2; Object.hasOwn(out, name); n += 1) name = `${base} (${n})`;
    Object.defineProperty(out, name, { value: map(inner, key), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Cuts long bodies (an HTML error page, say) to something a log line can hold. */
export function truncate(text: string, max = 500): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** A copy of an error that is safe to keep as `cause`: its message and stack redacted. */
export function redactedCause(error: unknown, secrets: Iterable<string>): Error {
  const list = [...secrets];
  if (!(error instanceof Error)) return new Error(redactText(String(error), list));
  const copy = new Error(redactText(error.message, list));
  copy.name = error.name;
  copy.stack = redactText(error.stack ?? '', list);
  return copy;
}
