// The one module that holds every masking rule: what a token, a credential or a CPF becomes wherever
// text leaves the package (error fields and messages, log lines and events, span attributes, the
// command line's output and files, verify's report, the sandbox's log and problems). Other modules
// call these functions; none keeps a copy of a rule (test/layers/masking.test.ts checks it).
//
// The rules, in the order they apply to a text:
// - any Unicode spelling of a digit counts: every decimal digit (\p{Nd}: full-width ５, Arabic-Indic
//   ٥, …) is read as its ASCII digit, and what NFKC makes one ASCII character (², ．, ｓ) as that;
// - a percent-encoded piece (a URL, a path) is decoded before it is looked at;
// - the secrets a caller names are masked by value (a CPF-like one in any spelling);
// - a credential where it is one (Authorization, `Bearer <token>`), and every CPF in its usual
//   spellings, are masked;
// - for display, control characters are escaped and each piece of provider text is bounded.
// Structures are walked with an explicit stack: a hostile body nested without end cannot overflow it.
import { cnpjProblem } from './cnpj.js';

/** What stands in place of a secret. */
export const MASK = '[REDACTED]';
/** What semantic conventions put in place of a query value that is not shown (`url.full`). */
export const HIDDEN_QUERY_VALUE = 'REDACTED';
/** The most characters of one piece of provider text (a title, a detail, a member) that is shown. */
export const MAX_PROVIDER_TEXT = 1000;

// A CPF in any of its usual spellings: 11 digits bare, or in groups of 3, 3, 3 and 2 with one of
// `. - / _` or a space between each (529.982.247-25, 529 982 247 25, 111.444.777/35, 111_444_777_35),
// or with only the check digits set apart (529982247-25). The last two digits stay visible, and the
// separators too. The fraction of a decimal number (a coordinate's 0.12345678901) is not one, nor an
// E.164 phone number (+12025550123).
const SEPARATOR = '[.\\-/_ ]';
const CPF = new RegExp(
  `(?<![0-9+])(?<![0-9][.])[0-9]{3}(?:[0-9]{6}|${SEPARATOR}[0-9]{3}${SEPARATOR}[0-9]{3})${SEPARATOR}?[0-9]{2}(?![0-9])`,
  'g',
);
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
// Header values that are credentials whole.
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-client-secret',
]);

// ---------------------------------------------------------------------------------------------
// Digits in any script

const NOT_ASCII = /[^\u0000-\u007f]/;
const NOT_ASCII_ALL = /[^\u0000-\u007f]/gu;
const UNICODE_DIGIT = /\p{Nd}/u;
// What each character outside ASCII reads as, once seen (bounded: a hostile text has many).
const plainOf = new Map<string, string>();
const MAX_REMEMBERED = 4096;

/** The ASCII digit of a Unicode decimal digit: its distance from the zero that opens its run of ten. */
function asciiDigit(digit: string): string {
  const code = digit.codePointAt(0)!;
  let zero = code;
  while (zero > 0 && UNICODE_DIGIT.test(String.fromCodePoint(zero - 1))) zero -= 1;
  return String((code - zero) % 10);
}

/** A character outside ASCII as the masking reads it: a digit of any script as its ASCII digit, else its NFKC form when that is one ASCII character. */
function plainChar(char: string): string {
  let plain = plainOf.get(char);
  if (plain === undefined) {
    const nfkc = char.normalize('NFKC');
    plain = UNICODE_DIGIT.test(char) ? asciiDigit(char) : nfkc.length === 1 && !NOT_ASCII.test(nfkc) ? nfkc : char;
    if (plainOf.size < MAX_REMEMBERED) plainOf.set(char, plain);
  }
  return plain;
}

/**
 * The text as the masking reads it: every decimal digit of any script (\p{Nd}: full-width ５,
 * Arabic-Indic ٥, …) an ASCII digit, and every character whose NFKC form is one ASCII character
 * (superscript ², full-width ．and ｓ, the no-break space) that character. Other text is left as it
 * is (an ellipsis, accented letters), and text that is all ASCII is returned untouched.
 */
export function normalizeDigits(text: string): string {
  if (!NOT_ASCII.test(text)) return text;
  return text.replace(NOT_ASCII_ALL, plainChar);
}

// ---------------------------------------------------------------------------------------------
// Percent-encoding

const ENCODED = /(?:%[0-9A-Fa-f]{2})+/g;
const HAS_ENCODED = /%[0-9A-Fa-f]{2}/;
const MAX_DECODE_ROUNDS = 4;

/** Percent-decoded, as often as it still decodes (a double encoding too); a malformed sequence stays as it is. */
export function percentDecode(text: string): string {
  let out = text;
  for (let round = 0; round < MAX_DECODE_ROUNDS && HAS_ENCODED.test(out); round += 1) {
    const next = out.replace(ENCODED, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
    if (next === out) break;
    out = next;
  }
  return out;
}

/**
 * Characters that may not stand in a URL, a log line or a JSON string as they are (white space,
 * controls, quotes, the backslash, anything not ASCII), encoded again after masking.
 */
const encodeUnsafe = (text: string): string =>
  text.replace(/[^\u0021-\u007e]|["'\\<>`]/gu, (char) => {
    const code = char.codePointAt(0)!;
    if (code < 0x80) return `%${code.toString(16).toUpperCase().padStart(2, '0')}`;
    try {
      return encodeURIComponent(char);
    } catch {
      return '%EF%BF%BD';
    }
  });

// ---------------------------------------------------------------------------------------------
// Text

export function maskDigits(value: string): string {
  return value.length <= 2 ? '*'.repeat(value.length) : '*'.repeat(value.length - 2) + value.slice(-2);
}

// An alphanumeric CNPJ (IN RFB nº 2.229/2024: 12 letters A-Z or digits, then 2 check digits) can hold
// a run of exactly 11 digits after its letter (`12A34567000107`): a company's public registration, not a
// CPF. Only the bare form can (a written one, `12.A34.567/0001-07`, has no CPF's shape), and only one
// whose check digits match is taken for a CNPJ: `CPF52998224725` is still a CPF after a word.
const CNPJ_CHARACTER = /[0-9A-Z]/;

/** A CPF-shaped match masked, unless it is the digits of an alphanumeric CNPJ (looked at 14 characters around it, no further). */
function maskCpf(match: string, offset: number, text: string): string {
  let start = offset;
  while (start > 0 && offset - start < 14 && CNPJ_CHARACTER.test(text[start - 1]!)) start -= 1;
  let end = offset + match.length;
  while (end < text.length && end - start <= 14 && CNPJ_CHARACTER.test(text[end]!)) end += 1;
  const around = text.slice(start, end);
  return /[A-Z]/.test(around) && cnpjProblem(around) === undefined ? match : maskAllButLastTwo(match);
}

/** Every digit but the last two masked; separators kept, so the shape of what was masked stays. */
const maskAllButLastTwo = (match: string): string => {
  let seen = 0;
  const digits = match.replace(/[^0-9]/g, '').length;
  return match.replace(/[0-9]/g, (digit) => (++seen <= digits - 2 ? '*' : digit));
};

/** A CPF-like secret (11 digits once its separators are gone): its digits, else undefined. */
function carriedNumber(secret: string): string | undefined {
  const digits = normalizeDigits(secret).replace(/[.\-/_ ]/g, '');
  return /^[0-9]{11}$/.test(digits) ? digits : undefined;
}

// A secret shorter than this is not masked by value: it would mask innocent text. Real tokens are long.
const MIN_SECRET_LENGTH = 6;
// Credentials a caller chose and names exactly (a client secret, its Basic value) are masked from this length.
const MIN_CREDENTIAL_LENGTH = 4;

const carriedPattern = (digits: string): RegExp =>
  new RegExp(digits.split('').join(`[^0-9A-Za-z]{0,${MAX_CARRIED_GAP}}`), 'g');

/** The rules over text already in its plain form (normalized, decoded). */
function maskPlain(text: string, secrets: readonly string[], minLength = MIN_SECRET_LENGTH): string {
  let out = text;
  for (const secret of secrets) {
    const number = carriedNumber(secret);
    if (number !== undefined) out = out.replace(carriedPattern(number), maskAllButLastTwo);
    else if (secret.length >= minLength) out = out.split(secret).join(MASK);
  }
  return out.replace(AUTHORIZATION, `$1${MASK}`).replace(BEARER, `$1${MASK}`).replace(CPF, maskCpf);
}

/**
 * Each run of text without white space that holds a percent-encoded sequence, decoded and masked; when
 * the masking found something there, the masked run (encoded again where it must be) takes its place.
 * Split by hand, not by a regular expression: a long text with one `%` must stay linear.
 */
function maskEncodedRuns(text: string, secrets: readonly string[], minLength?: number): string {
  if (!HAS_ENCODED.test(text)) return text;
  return text
    .split(/(\s+)/)
    .map((run) => {
      if (!HAS_ENCODED.test(run)) return run;
      const decoded = normalizeDigits(percentDecode(run));
      const masked = maskPlain(decoded, secrets, minLength);
      return masked === decoded ? run : encodeUnsafe(masked);
    })
    .join('');
}

/**
 * Each segment of a JSON pointer (RFC 6901) that holds an escape, read unescaped (`~1` is `/`, `~0` is
 * `~`) and masked: a member named `111.444.777/35` is written `/111.444.777~135` in a pointer. A
 * segment the masking changed is escaped again.
 */
function maskPointerRuns(text: string, secrets: readonly string[], minLength?: number): string {
  if (!text.includes('~')) return text;
  return text
    .split(/(\s+)/)
    .map((run) =>
      !/~[01]/.test(run)
        ? run
        : run
            .split('/')
            .map((segment) => {
              if (!/~[01]/.test(segment)) return segment;
              const plain = segment.replace(/~1/g, '/').replace(/~0/g, '~');
              const masked = maskPlain(plain, secrets, minLength);
              return masked === plain ? segment : masked.replace(/~/g, '~0').replace(/\//g, '~1');
            })
            .join('/'),
    )
    .join('');
}

/**
 * Masks CPF numbers (any usual spelling, any script's digits, percent-encoded too), bearer credentials
 * and the given secrets inside free text. A secret that is a CPF-like number (a DocumentNumber a call
 * carried) is masked in any spelling; any other secret by its exact value.
 */
export function redactText(text: string, secrets: Iterable<string> = []): string {
  const list = Array.isArray(secrets) ? (secrets as readonly string[]) : [...secrets];
  return maskPlain(maskPointerRuns(maskEncodedRuns(normalizeDigits(text), list), list), list);
}

/**
 * redactText with credentials the caller knows exactly (the client secret, its Basic value, the
 * tokens it fetched): these are masked from 4 characters, where other secrets need 6.
 */
export function redactCredentials(text: string, credentials: readonly string[]): string {
  return maskPlain(
    maskEncodedRuns(normalizeDigits(text), credentials, MIN_CREDENTIAL_LENGTH),
    credentials,
    MIN_CREDENTIAL_LENGTH,
  );
}

/** Cuts long text (an HTML error page, say) to something a log line can hold. */
export function truncate(text: string, max = 500): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

// Provider text is cut before it is masked, so that a huge text costs no more than a short one. The
// cut leaves this many times the bound: masking can shorten text (a percent-encoded run to a third),
// so what the cut may split lies past the bound once masked, and the bound removes it.
const CUT_FACTOR = 8;

/**
 * One piece of provider text as it may be shown: masked, and at most `max` characters (then marked
 * as cut, with how much more there was).
 */
export function redactBounded(
  text: string,
  secrets: Iterable<string> = [],
  max = MAX_PROVIDER_TEXT,
  mask: (text: string, secrets: readonly string[]) => string = redactText,
): string {
  const cut = text.length > max * CUT_FACTOR ? text.slice(0, max * CUT_FACTOR) : text;
  const masked = mask(cut, [...secrets]);
  if (masked.length <= max && cut === text) return masked;
  const more = cut === text ? masked.length - max : text.length - max;
  return `${masked.slice(0, max)}… (${more} more characters)`;
}

// C0 and C1 controls, DEL, format characters (bidi overrides that reorder what a terminal shows),
// the Unicode line and paragraph separators, and the backslash, so that an escape cannot be faked.
const UNSAFE = /[\p{Cc}\p{Cf}\u2028\u2029\\]/gu;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' };
// The same less C0 and the backslash, which JSON.stringify escapes inside strings (and which its
// indentation uses).
const UNSAFE_IN_JSON = /[\u007f-\u009f\p{Cf}\u2028\u2029]/gu;

const escapeOne = (char: string): string => {
  const code = char.codePointAt(0)!;
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/** `text` with every character a terminal would act on written as an escape (`\n`, `\x1b`, `\u202e`). */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, (char) => NAMED[char] ?? escapeOne(char));
}

/** JSON text with what JSON.stringify leaves as it is (DEL, C1, separators, bidi) written as `\uXXXX`: the same JSON, safe to `cat`. */
export function escapeJsonControls(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (char) => `\\u${char.codePointAt(0)!.toString(16).padStart(4, '0')}`);
}

/** A message safe to show on one line: masked, then its control characters escaped. */
export function redactMessage(text: string, secrets: Iterable<string> = []): string {
  return escapeControls(redactText(text, secrets));
}

// ---------------------------------------------------------------------------------------------
// URLs and paths

/**
 * A URL safe to show: userinfo dropped, DocumentNumber masked to its last two digits, and each part
 * (path segment, query name and value, fragment) read percent-decoded and masked as text.
 */
export function redactUrl(url: string, secrets: Iterable<string> = []): string {
  const list = [...secrets];
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return redactText(url, list);
  }
  parsed.username = '';
  parsed.password = '';
  // A part is read decoded; it changes only when the masking found something in it.
  const masked = (text: string): string | undefined => {
    const decoded = normalizeDigits(percentDecode(text));
    const shown = maskPlain(decoded, list);
    return shown === decoded ? undefined : shown;
  };
  const part = (text: string): string => {
    const shown = masked(text);
    return shown === undefined ? text : encodeUnsafe(shown).replace(/[/?#]/g, encodeURIComponent);
  };
  parsed.pathname = parsed.pathname.split('/').map(part).join('/');
  let changed = false;
  const query = [...parsed.searchParams].map(([name, value]): [string, string] => {
    const shownName = masked(name);
    const shownValue = name.toLowerCase() === 'documentnumber' ? maskDigits(value) : masked(value);
    if (shownName !== undefined || shownValue !== undefined) changed = true;
    return [shownName ?? name, shownValue ?? value];
  });
  if (changed) parsed.search = new URLSearchParams(query).toString();
  if (parsed.hash !== '') parsed.hash = part(parsed.hash.slice(1));
  return redactText(parsed.toString(), list);
}

/** The (already redacted) URL with no query value at all: names kept, each value `REDACTED`; no fragment. */
export function hideQueryValues(redacted: URL | string): string {
  if (typeof redacted === 'string' && !URL.canParse(redacted)) return redacted.replace(/[?#].*/s, '');
  const url = new URL(redacted);
  const names = [...url.searchParams.keys()];
  const query =
    names.length === 0 ? '' : `?${names.map((name) => `${encodeURIComponent(name)}=${HIDDEN_QUERY_VALUE}`).join('&')}`;
  return `${url.origin}${url.pathname}${query}`;
}

// A digit, written or percent-encoded; between two digits at most one separator a CPF is written
// with (dot, dash, space, underscore, plus, slash), written or percent-encoded.
const PATH_DIGIT = '(?:[0-9]|%3[0-9])';
const PATH_SEPARATOR = '(?:[.\\-_ +]|%2[0BDEF]|%5F)';
// Eleven digits or more in such a run may be a CPF (529.982.247-25, 529%20982%20247%2025, 52998224725).
const DIGIT_RUN = new RegExp(`${PATH_DIGIT}(?:${PATH_SEPARATOR}?${PATH_DIGIT}){10,}`, 'gi');
const HAS_DIGIT_RUN = new RegExp(DIGIT_RUN.source, 'i');
// Read token by token, so that the digits of an encoded separator (%20) are not taken for digits.
const PATH_TOKEN = /%[0-9a-f]{2}|[\s\S]/gi;
const maskRun = (run: string): string =>
  run.replace(PATH_TOKEN, (token) => (/^(?:[0-9]|%3[0-9])$/.test(token) ? '*' : token));
// `Bearer` and what follows it up to the next path segment, the separator written or encoded.
const PATH_BEARER = /(bearer(?:[ +]|%20|%09)+)[^/]+/gi;

/**
 * A request path as a log of our servers shows it: no query string (query values may be personal
 * data), every digit of a run of eleven or more masked (a log of requests keeps no check digits),
 * separators kept, a bearer credential masked, control characters escaped. A path written with
 * digits of another script is shown decoded, in the form the masking reads.
 */
export function redactPath(url: string | undefined): string {
  const path = (url ?? '/').split('?')[0]!;
  let shown = path.replace(DIGIT_RUN, maskRun);
  // Read as a person would read it (decoded, any script's digits), a run may still be there: a
  // double encoding, full-width digits. Then the path is shown in that form, masked.
  const plain = normalizeDigits(percentDecode(shown));
  if (HAS_DIGIT_RUN.test(plain)) shown = encodeUnsafe(plain.replace(DIGIT_RUN, maskRun));
  return escapeControls(shown.replace(PATH_BEARER, '$1***'));
}

// ---------------------------------------------------------------------------------------------
// Structures

/** Header values by name: a credential header masked whole (its scheme kept), any other masked as text; names lower-cased. */
export function redactHeaders(headers: Record<string, unknown>, secrets: readonly string[]): Record<string, string> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (CREDENTIAL_HEADERS.has(lower)) {
      // Keep the scheme (Bearer, Basic): it helps diagnose, and is no secret.
      const scheme = /^(Bearer|Basic)\s/i.exec(String(value))?.[1];
      out[lower] = scheme ? `${scheme} ${MASK}` : MASK;
    } else define(out, redactBounded(lower, secrets), redactBounded(String(value), secrets));
  }
  return out as Record<string, string>;
}

/**
 * A member defined under its (redacted) name, told apart by a suffix when two names redact alike;
 * defined, not assigned, so that a name such as `__proto__` stays a member. Returns the name used.
 */
function define(out: Record<string, unknown>, base: string, value: unknown): string {
  let name = base;
  for (let n = 2; Object.hasOwn(out, name); n += 1) name = `${base} (${n})`;
  Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  return name;
}

export interface RedactJsonOptions {
  /** Objects and arrays this deep are replaced by `tooDeep` (64). */
  maxDepth?: number;
  /** What stands in place of what is too deep (`'[too deep]'`). */
  tooDeep?: unknown;
  /** A string under the member `key` (an array's items count as under their array's key); default redactBounded. */
  text?: (text: string, key: string) => string;
  /** Whether a null is dropped as undefined is (events), rather than kept (JSON). */
  dropNull?: boolean;
  /** An object under `key` that has a rule of its own (headers): its copy, or undefined to walk it. */
  node?: (node: object, key: string) => unknown;
}

interface Pending {
  node: unknown;
  key: string;
  depth: number;
  put: (value: unknown) => void;
}

/**
 * Deep copy of a parsed JSON value (or an event) with every string masked and bounded, member names
 * included (a provider may key an object by a CPF or a token). Two names that redact alike are told
 * apart by a suffix. Walked with a stack of its own, so no nesting can overflow the call stack.
 */
export function redactJson<T>(value: T, secrets: Iterable<string> = [], options: RedactJsonOptions = {}): T {
  const list = [...secrets];
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  const tooDeep = 'tooDeep' in options ? options.tooDeep : TOO_DEEP;
  const text = options.text ?? ((string: string) => redactBounded(string, list));
  let root: unknown;
  const stack: Pending[] = [{ node: value, key: '', depth: 0, put: (copy) => (root = copy) }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { node, key, depth, put } = next;
    if (typeof node === 'string') put(text(node, key));
    else if (node === null) put(options.dropNull ? undefined : null);
    else if (!node || typeof node !== 'object') put(node);
    else if (depth >= maxDepth) put(tooDeep);
    else {
      const own = options.node?.(node, key);
      if (own !== undefined) put(own);
      else if (Array.isArray(node)) {
        const copy: unknown[] = new Array(node.length);
        put(copy);
        for (let index = 0; index < node.length; index += 1) {
          stack.push({ node: node[index], key, depth: depth + 1, put: (inner) => (copy[index] = inner) });
        }
      } else {
        const copy: Record<string, unknown> = {};
        put(copy);
        for (const [name, inner] of Object.entries(node)) {
          if (inner === undefined) continue;
          const shown = define(copy, redactBounded(name, list), undefined);
          stack.push({ node: inner, key: name, depth: depth + 1, put: (item) => (copy[shown] = item) });
        }
      }
    }
  }
  return root as T;
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
