// The one module that holds every masking rule: what a token, a credential or a CPF becomes wherever
// text leaves the package (error fields and messages, log lines and events, span attributes, the
// command line's output and files, verify's report, the sandbox's log and problems). Other modules
// call these functions; none keeps a copy of a rule (test/layers/masking.check.test.ts checks it).
//
// The rules, in the order they apply to a text:
// - any Unicode spelling of a digit counts: every character whose numeric value is one digit (full-width
//   ５, Arabic-Indic ٥, ①, ², …) is read as its ASCII digit, and what NFKC makes one ASCII character
//   (．, ｓ) as that;
// - a percent-encoded piece (a URL, a path) is decoded before it is looked at;
// - the secrets a caller names are masked by value (a CPF-like one in any spelling);
// - a credential where it is one (Authorization, `Bearer <token>`), and every CPF in its usual
//   spellings, are masked;
// - for display, control characters are escaped and each piece of provider text is bounded.
// Structures are walked with an explicit stack: a hostile body nested without end cannot overflow it.
import { cnpjProblem } from './cnpj.js';
import { DIGIT_RUNS } from './unicode-digits.js';

/** What stands in place of a secret. */
export const MASK = '[REDACTED]';
/** What semantic conventions put in place of a query value that is not shown (`url.full`). */
export const HIDDEN_QUERY_VALUE = 'REDACTED';
/** The most characters of one piece of provider text (a title, a detail, a member) that is shown. */
export const MAX_PROVIDER_TEXT = 1000;

// A CPF is 11 digits, where
// - a digit is a character whose Unicode Numeric_Type is Decimal, Digit or Numeric and whose
//   Numeric_Value is an integer from 0 to 9: every decimal digit (ASCII, full-width ５, Arabic-Indic ٥,
//   Devanagari, mathematical 𝟓, …) and the other characters worth 0 to 9 (circled ①, parenthesized ⑴,
//   with a full stop ⒈, with a comma 🄂, dingbats ❶ ➊ ⓵, superscripts ², Roman numerals Ⅴ, Ethiopic ፩,
//   Kaktovik, the CJK numerals 五 伍, …), never a fraction or a value of 10 or more; the table of
//   src/unicode-digits.ts, written from the Unicode Character Database of DIGITS_UNICODE_VERSION;
// - between two digits may stand up to MAX_GAP characters that are neither a letter nor a number
//   (not \p{L}, not \p{N}): punctuation, symbols, every space, format and invisible characters
//   (zero-width space, joiners, soft hyphen, bidi marks), combining marks (a keycap 5️⃣ is a digit,
//   U+FE0F and U+20E3), controls;
// - a run of more digits joined the same way (a CNPJ, a phone number with its country code, a date
//   and time) is not a CPF, nor is a run broken by a letter (an alphanumeric CNPJ 12.ABC.345/01DE-35).
// The text is read as a provider may have encoded it, too: percent-decoded (a double encoding as
// well), with `+` as a space (form and query encoding), JSON string escapes undone (`\/`, `\uXXXX`),
// a JSON pointer's `~1` as `/`. What any of these readings finds is masked where it stands in the
// text. The last two digits of a CPF stay visible, and what stood between the digits too.
/** The most characters that are neither letters nor numbers between two digits of one CPF. */
export const MAX_GAP = 16;
/** How many digits a CPF has. */
const CPF_DIGITS = 11;
const GAP = `[^\\p{L}\\p{N}]{0,${MAX_GAP}}`;
// A maximal run of 11 digits or more joined by gaps (the gap class holds no digit, so each run is
// maximal); a shorter run holds no CPF and is not looked at.
const DIGIT_RUN = new RegExp(`[0-9](?:${GAP}[0-9]){${CPF_DIGITS - 1},}`, 'gu');
// Deeper than this, a JSON value is dropped rather than walked (a hostile body can nest without end).
const MAX_JSON_DEPTH = 64;
const TOO_DEEP = '[too deep]';
/** The most strings, numbers, objects and arrays of one structure that are walked; the rest is not shown. */
export const MAX_JSON_NODES = 10_000;
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
const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;
// What each character outside ASCII reads as, once seen (bounded: a hostile text has many).
const plainOf = new Map<string, string>();
const MAX_REMEMBERED = 4096;

/** The value of a digit (５, ٥, ①, ⑴, ❶, ², 五), by the table's runs; undefined when it is none. */
function tableDigit(code: number): number | undefined {
  let low = 0;
  let high = DIGIT_RUNS.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const [first, last, value] = DIGIT_RUNS[middle]!;
    if (code < first) high = middle - 1;
    else if (code > last) low = middle + 1;
    else return value + code - first;
  }
  return undefined;
}

/** The ASCII digit of a character outside ASCII whose numeric value is one digit; undefined for any other. */
function digitOf(char: string): string | undefined {
  const value = tableDigit(char.codePointAt(0)!);
  return value === undefined ? undefined : String(value);
}

/** A character outside ASCII as the masking reads it: a digit as its ASCII digit, else its NFKC form when that is one ASCII character. */
function plainChar(char: string): string {
  let plain = plainOf.get(char);
  // Stryker disable next-line ConditionalExpression: a cache; a character read again reads the same.
  if (plain === undefined) {
    const nfkc = char.normalize('NFKC');
    // A character that is neither letter nor number stays one (Ⓚ is a symbol, though NFKC makes it K).
    const kept =
      nfkc.length !== 1 || NOT_ASCII.test(nfkc) || (/[A-Za-z0-9]/.test(nfkc) && !LETTER_OR_NUMBER.test(char));
    plain = digitOf(char) ?? (kept ? char : nfkc);
    // Stryker disable next-line ConditionalExpression,EqualityOperator,CallExpression: the cache's bound (memory only).
    if (plainOf.size < MAX_REMEMBERED) plainOf.set(char, plain);
  }
  return plain;
}

/**
 * The text as the masking reads it: every character whose numeric value is one digit (any script,
 * ①, ⑴, ❶, ²) an ASCII digit, and every character whose NFKC form is one ASCII character (full-width
 * ．and ｓ, the no-break space) that character. Other text is left as it is (an ellipsis, accented
 * letters), and text that is all ASCII is returned untouched.
 */
export function normalizeDigits(text: string): string {
  // Stryker disable next-line ConditionalExpression: speed only; the replace below finds nothing in ASCII text.
  if (!NOT_ASCII.test(text)) return text;
  return text.replace(NOT_ASCII_ALL, plainChar);
}

// ---------------------------------------------------------------------------------------------
// Readings: the text as a provider may have encoded it, each character mapped to where it stood

/**
 * A reading of a text: `text`, and for each of its UTF-16 units the start and end (in the text read)
 * of what it was read from.
 */
interface Reading {
  text: string;
  from: number[];
  to: number[];
}

/** The text itself, as a reading: each unit read from itself. */
const asRead = (text: string): Reading => ({ text, from: [], to: [] });
const fromOf = (reading: Reading, index: number): number => (reading.from.length === 0 ? index : reading.from[index]!);
const toOf = (reading: Reading, index: number): number => (reading.to.length === 0 ? index + 1 : reading.to[index]!);

/** Builds a reading piece by piece: what was read from [start, end) of the source. */
class ReadingBuilder {
  readonly parts: string[] = [];
  readonly from: number[] = [];
  readonly to: number[] = [];
  put(text: string, start: number, end: number): void {
    this.parts.push(text);
    for (let unit = 0; unit < text.length; unit += 1) {
      this.from.push(start);
      this.to.push(end);
    }
  }
  done(): Reading {
    return { text: this.parts.join(''), from: this.from, to: this.to };
  }
}

/** `next`, a reading of `previous.text`, as a reading of what `previous` was read from. */
function compose(previous: Reading, next: Reading): Reading {
  return {
    text: next.text,
    from: next.from.map((start) => fromOf(previous, start)),
    to: next.to.map((end) => toOf(previous, end - 1)),
  };
}

const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;
const HAS_ENCODED = /%[0-9A-Fa-f]{2}/;
const MAX_DECODE_ROUNDS = 4;

/** The number of bytes a UTF-8 sequence has by its first byte; 1 for a byte that cannot start one. */
const sequenceLength = (byte: number): number => (byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1);

/** One round of percent-decoding; a sequence that is not UTF-8 stays as it is. */
function percentRound(text: string): Reading {
  const out = new ReadingBuilder();
  let at = 0;
  for (const match of text.matchAll(PERCENT_RUN)) {
    for (let index = at; index < match.index; index += 1) out.put(text[index]!, index, index + 1);
    const run = match[0];
    for (let offset = 0; offset < run.length; ) {
      const length = sequenceLength(Number.parseInt(run.slice(offset + 1, offset + 3), 16)) * 3;
      const start = match.index + offset;
      let decoded: string | undefined;
      try {
        // A sequence cut short by the run's end is not UTF-8 either: decodeURIComponent refuses it.
        decoded = decodeURIComponent(run.slice(offset, offset + length));
      } catch {
        // Not UTF-8: it stays as written.
      }
      if (decoded === undefined) {
        out.put(run.slice(offset, offset + 3), start, start + 3);
        offset += 3;
      } else {
        out.put(decoded, start, start + length);
        offset += length;
      }
    }
    at = match.index + run.length;
  }
  for (let index = at; index < text.length; index += 1) out.put(text[index]!, index, index + 1);
  return out.done();
}

/** Percent-decoded, as often as it still decodes (a double encoding too); a malformed sequence stays as it is. */
export function percentDecode(text: string): string {
  let out = text;
  for (let round = 0; round < MAX_DECODE_ROUNDS && HAS_ENCODED.test(out); round += 1) out = percentRound(out).text;
  return out;
}

// JSON string escapes (`\/`, `\uXXXX`, `\"`, …) and a JSON pointer's `~1` and `~0`.
const ESCAPE = /\\(?:u[0-9A-Fa-f]{4}|["\\/bfnrt])|~[01]/g;
const HAS_ESCAPE = /\\(?:u[0-9A-Fa-f]{4}|["\\/bfnrt])|~[01]/;
const ESCAPED: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  '0': '~',
  '1': '/',
};

/** A JSON string's escapes and a pointer's undone, `+` read as a space when `plus` is. */
function unescapeRound(text: string, plus: boolean): Reading {
  const out = new ReadingBuilder();
  let at = 0;
  const copy = (end: number) => {
    for (let index = at; index < end; index += 1)
      out.put(plus && text[index] === '+' ? ' ' : text[index]!, index, index + 1);
  };
  for (const match of text.matchAll(ESCAPE)) {
    copy(match.index);
    const written = match[0];
    const shown =
      written[1] === 'u' ? String.fromCharCode(Number.parseInt(written.slice(2), 16)) : ESCAPED[written[1]!]!;
    out.put(shown, match.index, match.index + written.length);
    at = match.index + written.length;
  }
  copy(text.length);
  return out.done();
}

/** A reading's text with digits of any script read as ASCII digits, each unit still mapped. */
function normalized(reading: Reading): Reading {
  // Stryker disable next-line ConditionalExpression: speed only; an ASCII reading is rebuilt unit for unit the same.
  if (!NOT_ASCII.test(reading.text)) return reading;
  const out = new ReadingBuilder();
  let index = 0;
  for (const char of reading.text) {
    const start = fromOf(reading, index);
    const end = toOf(reading, index + char.length - 1);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: speed only; plainChar returns an ASCII character (and U+0080) unchanged.
    out.put(char.length === 1 && char.charCodeAt(0) < 0x80 ? char : plainChar(char), start, end);
    index += char.length;
  }
  return out.done();
}

const ENCODED_ANYHOW = /%[0-9A-Fa-f]{2}|\\[u"\\/bfnrt]|~[01]/;
const ESCAPES = /%[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}|~[01]/g;
/** An escape as letters of its length: it breaks a run of digits, and keeps every place where it was. */
const blank = (sequence: string): string => 'x'.repeat(sequence.length);
// Where a text names a server, its digits are an address, not a CPF: the host and port of a URL
// (`http://127.0.0.1:39051/`, after any user info) and a socket address (`127.0.0.1:39051`, as a
// connection error names it), where the host is an IPv4 address (each part 0 to 255), an IPv6 one in
// brackets or a name with a letter. User info, path, query and fragment are read as any text.
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
const HOST = `(?:\\[[0-9A-Fa-f:.]+\\]|${IPV4}|[A-Za-z0-9.-]*[A-Za-z][A-Za-z0-9.-]*)`;
const ADDRESS = new RegExp(
  `(\\b[A-Za-z][A-Za-z0-9+.-]*://(?:[^\\s/?#@]*@)?)(${HOST}(?::[0-9]{1,5})?)(?=[/?#\\s"'<>\\\\)]|$)|\\b${IPV4}:[0-9]{1,5}\\b`,
  'g',
);
/** The text a CPF is looked for in: what names a server blanked, each place kept. */
const digitsOf = (text: string): string =>
  // Stryker disable next-line ConditionalExpression,StringLiteral: speed only; ADDRESS matches nothing without a colon.
  text.includes(':')
    ? text.replace(ADDRESS, (address, scheme: string | undefined, host: string | undefined) =>
        scheme === undefined ? blank(address) : scheme + blank(host!),
      )
    : text;

/**
 * The readings of a (normalized) text besides the text itself: escapes undone and percent-decoded,
 * once with `+` kept and once with `+` as a space (form encoding). None when nothing is encoded.
 */
function readingsOf(text: string): Reading[] {
  const encoded = ENCODED_ANYHOW.test(text);
  const plus = text.includes('+');
  if (!encoded && !plus) return [];
  // Each round of decoding is a reading of its own: a secret holding `%00` is seen after one round of
  // a double encoding, and no more after the next.
  const readings: Reading[] = [];
  // Escapes are undone after each round too: a JSON escape inside a percent-encoded header (`%5Cu002e`).
  const decode = (withPlus: boolean): void => {
    let reading = unescapeRound(text, withPlus);
    readings.push(normalized(reading));
    for (let round = 0; round < MAX_DECODE_ROUNDS && HAS_ENCODED.test(reading.text); round += 1) {
      reading = compose(reading, percentRound(reading.text));
      readings.push(normalized(reading));
      if (HAS_ESCAPE.test(reading.text)) {
        reading = compose(reading, unescapeRound(reading.text, false));
        readings.push(normalized(reading));
      }
    }
  };
  if (encoded || !plus) decode(false);
  if (plus) decode(true);
  return readings;
}

// ---------------------------------------------------------------------------------------------
// Text

export function maskDigits(value: string): string {
  return value.length <= 2 ? '*'.repeat(value.length) : '*'.repeat(value.length - 2) + value.slice(-2);
}

/** Every digit but the last two masked; what stood between them kept, so the shape of what was masked stays. */
const maskAllButLastTwo = (match: string): string => {
  let seen = 0;
  const digits = match.replace(/[^0-9]/g, '').length;
  return match.replace(/[0-9]/g, (digit) => (++seen <= digits - 2 ? '*' : digit));
};

const NOT_ALPHANUMERIC = /[^\p{L}\p{N}]/gu;

/** A CPF-like secret (11 digits once what is neither letter nor number is gone): its digits, else undefined. */
function carriedNumber(secret: string): string | undefined {
  const digits = normalizeDigits(secret).replace(NOT_ALPHANUMERIC, '');
  return /^[0-9]{11}$/.test(digits) ? digits : undefined;
}

// A secret shorter than this is not masked by value: it would mask innocent text. Real tokens are long.
const MIN_SECRET_LENGTH = 6;
// Credentials a caller chose and names exactly (a client secret, its Basic value) are masked from this length.
const MIN_CREDENTIAL_LENGTH = 4;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What finds the secrets of one list: the numbers a call carried in any spelling, the others by value. */
interface SecretMatchers {
  numbers: RegExp | undefined;
  values: RegExp | undefined;
}

// The matchers of the lists seen last (a client's list changes only when a token comes or goes).
const matchersOf = new Map<string, SecretMatchers>();
const MAX_MATCHER_LISTS = 32;

function matchers(secrets: readonly string[], minLength: number): SecretMatchers {
  const key = `${minLength}\u0000${secrets.join('\u0000')}`;
  let found = matchersOf.get(key);
  if (found === undefined) {
    const numbers = new Set<string>();
    const values = new Set<string>();
    for (const secret of secrets) {
      const number = carriedNumber(secret);
      if (number !== undefined) numbers.add(number.split('').join(GAP));
      else if (secret.length >= minLength) values.add(normalizeDigits(secret));
    }
    // The longest first, so that a secret holding another is masked whole.
    const alternatives = (set: Set<string>, quote: (text: string) => string) =>
      [...set]
        .sort((a, b) => b.length - a.length)
        .map(quote)
        .join('|');
    found = {
      numbers:
        numbers.size === 0
          ? undefined
          : new RegExp(
              alternatives(numbers, (text) => text),
              'gu',
            ),
      values: values.size === 0 ? undefined : new RegExp(alternatives(values, escapeRegExp), 'g'),
    };
    // Stryker disable next-line ConditionalExpression,EqualityOperator,CallExpression: the cache's bound (memory only).
    if (matchersOf.size >= MAX_MATCHER_LISTS) matchersOf.delete(matchersOf.keys().next().value!);
    // Stryker disable next-line CallExpression: a cache; a list's matchers are built again the same.
    matchersOf.set(key, found);
  }
  return found;
}

/** A place to mask in the text read: [start, end), and whether a secret (masked whole) or a CPF lies there. */
interface Finding {
  start: number;
  end: number;
  secret: boolean;
}

const DIGIT_GROUP = /[0-9]+/g;

/**
 * The CPFs of one run of digits (places in it): every stretch of whole groups (digits with nothing
 * between them) that holds 11 digits. A run of 11 digits is one, in any grouping; in a longer run, 11
 * digits that stand apart as whole groups are one too, so that a number written near a CPF (`line 2:
 * 529.982.247-25`, `HTTP 422: 52998224725`) or a list of CPFs hides none. A run in which no whole
 * groups hold 11 digits (a CNPJ `12.345.678/0001-95`, a date, a decimal fraction, an address) holds none.
 */
function cpfsIn(run: string): [number, number][] {
  const groups = [...run.matchAll(DIGIT_GROUP)].map((group): [number, number] => [
    group.index,
    group.index + group[0].length,
  ]);
  const places: [number, number][] = [];
  for (let first = 0; first < groups.length; first += 1) {
    let digits = 0;
    for (let last = first; last < groups.length && digits < CPF_DIGITS; last += 1) {
      digits += groups[last]![1] - groups[last]![0];
      if (digits === CPF_DIGITS) places.push([groups[first]![0], groups[last]![1]]);
    }
  }
  return places;
}

// A CNPJ's characters (digits and, since IN RFB nº 2.229/2024, the letters A-Z) joined as a CPF's digits are.
const CNPJ_RUN = new RegExp(`[0-9A-Z](?:${GAP}[0-9A-Z])*`, 'gu');
const NOT_CNPJ_CHARACTER = /[^0-9A-Z]/g;

/**
 * The places of the CNPJs in a text: runs of exactly 14 characters of a CNPJ (12 digits or upper-case
 * letters, 2 check digits), written bare or with anything but letters and numbers between them, whose
 * check digits match. A company's public registration, not a CPF: the 11 digits an alphanumeric one can
 * hold after its letter (`12A34567000107`, `12.A34.567/0001-07`) are not masked. `CPF52998224725` is no
 * CNPJ (its check digits do not match): a CPF after a word in capitals is still masked.
 */
function cnpjsIn(text: string): [number, number][] {
  const places: [number, number][] = [];
  for (const match of text.matchAll(CNPJ_RUN)) {
    const characters = match[0].replace(NOT_CNPJ_CHARACTER, '');
    if (characters.length === 14 && cnpjProblem(characters) === undefined)
      places.push([match.index, match.index + match[0].length]);
  }
  return places;
}

/** What the rules find in one reading, as places in the text read. */
function findingsIn(reading: Reading, found: SecretMatchers, out: Finding[], digits = reading.text): void {
  const add = (start: number, end: number, secret: boolean) =>
    out.push({ start: fromOf(reading, start), end: toOf(reading, end - 1), secret });
  let cnpjs: [number, number][] | undefined;
  for (const match of digits.matchAll(DIGIT_RUN))
    for (const [start, end] of cpfsIn(match[0])) {
      cnpjs ??= cnpjsIn(digits);
      const at = match.index + start;
      const to = match.index + end;
      if (!cnpjs.some(([first, last]) => first <= at && to <= last)) add(at, to, false);
    }
  if (found.numbers)
    for (const match of reading.text.matchAll(found.numbers)) add(match.index, match.index + match[0].length, false);
  if (found.values)
    for (const match of reading.text.matchAll(found.values)) add(match.index, match.index + match[0].length, true);
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

/**
 * The rules over a normalized text and its readings: each place any of them finds is masked where it
 * stands (places that overlap as one), then credentials where they are one.
 */
function maskPlain(text: string, secrets: readonly string[], minLength = MIN_SECRET_LENGTH): string {
  const found = matchers(secrets, minLength);
  const findings: Finding[] = [];
  const readings = readingsOf(text);
  // As written (and in a reading that has not undone them yet), the digits of an escape (%2E,
  // \u002e, ~1) are not digits: the next reading sees what they stand for.
  findingsIn(asRead(text), found, findings, digitsOf(text.replace(ESCAPES, blank)));
  for (const reading of readings) findingsIn(reading, found, findings, digitsOf(reading.text.replace(ESCAPES, blank)));
  const out = applyFindings(text, findings, (written, secret) => (secret ? MASK : shownCpf(written)));
  return out.replace(AUTHORIZATION, `$1${MASK}`).replace(BEARER, `$1${MASK}`);
}

/** The text with each place found written as `shown` makes it; places that overlap are one place, a secret when one of them is. */
function applyFindings(text: string, findings: Finding[], shown: (written: string, secret: boolean) => string): string {
  // By start only: places that start together are one place whatever their order (its end is the
  // furthest of theirs).
  findings.sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  let at = 0;
  for (let index = 0; index < findings.length; ) {
    let { start, end, secret } = findings[index]!;
    for (index += 1; index < findings.length && findings[index]!.start < end; index += 1) {
      end = Math.max(end, findings[index]!.end);
      secret ||= findings[index]!.secret;
    }
    parts.push(text.slice(at, start), shown(text.slice(start, end), secret));
    at = end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/** What an encoded stretch of text says: its escapes undone (`+` a space when `plus`), percent-decoded, its digits ASCII. */
const decoded = (written: string, plus = false): string => {
  let text = unescapeRound(written, plus).text;
  for (let round = 0; round < MAX_DECODE_ROUNDS && HAS_ENCODED.test(text); round += 1)
    text = unescapeRound(percentRound(text).text, false).text;
  return normalizeDigits(text);
};

/**
 * A CPF as it is shown: written plainly, its digits but the last two masked; written encoded, read,
 * masked and encoded again (a JSON pointer's escapes as such, anything else percent-encoded).
 */
function shownCpf(written: string): string {
  if (!ENCODED_ANYHOW.test(written)) return maskAllButLastTwo(written);
  const masked = maskAllButLastTwo(decoded(written));
  return /%[0-9A-Fa-f]{2}|\\/.test(written) ? encodeUnsafe(masked) : masked.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Masks CPF numbers (any digits, anything that is neither letter nor number between them, read
 * through percent, form and JSON encoding too), bearer credentials and the given secrets inside free
 * text. A secret that is a CPF-like number (a DocumentNumber a call carried) is masked in any spelling,
 * inside a longer run too; any other secret by its value, in any of those encodings.
 */
export function redactText(text: string, secrets: Iterable<string> = []): string {
  const list = Array.isArray(secrets) ? (secrets as readonly string[]) : [...secrets];
  return maskPlain(normalizeDigits(text), list);
}

/**
 * redactText with credentials the caller knows exactly (the client secret, its Basic value, the
 * tokens it fetched): these are masked from 4 characters, where other secrets need 6.
 */
export function redactCredentials(text: string, credentials: readonly string[]): string {
  return maskPlain(normalizeDigits(text), credentials, MIN_CREDENTIAL_LENGTH);
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
  const cut = text.slice(0, max * CUT_FACTOR);
  const masked = mask(cut, [...secrets]);
  if (masked.length <= max && cut === text) return masked;
  const more = cut === text ? masked.length - max : text.length - max;
  return `${masked.slice(0, max)}… (${more} more characters)`;
}

// What a terminal or a log reader acts on: C0 and C1 controls, DEL, format characters (bidi
// overrides that reorder what a terminal shows), the Unicode line and paragraph separators.
//
// Escaping is idempotent by construction, so that no text is ever escaped twice however many layers
// it passes through (an error's message is escaped where it is built, then a logger's line, an event,
// the command line's terminal line or report escape what they write): every escape written (`\n`,
// `\x1b`, `\u202e`) is printable ASCII, none of it in UNSAFE, so escaping escaped text changes
// nothing, and `escapeControls(escapeControls(t)) === escapeControls(t)` for every text. That is why
// the backslash is not escaped: escaping it (`\` as `\\`) would double it at each layer (a
// pattern's `\.` read `\\.` in a message and `\\\\.` on the terminal), and no caller can be
// trusted to remember which layer is the last. The price: a text holding the six characters `\x1b`
// reads as one holding an escape; neither acts on the terminal, and the JSON outputs keep the exact
// text (test/redaction/escape-once.test.ts).
const UNSAFE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
// The same less C0, which JSON.stringify escapes inside strings (and which its indentation uses).
const UNSAFE_IN_JSON = /[\u007f-\u009f\p{Cf}\u2028\u2029]/gu;

const escapeOne = (char: string): string => {
  const code = char.codePointAt(0)!;
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/**
 * `text` with every character a terminal would act on written as an escape (`\n`, `\x1b`, `\u202e`);
 * idempotent (see UNSAFE): text already escaped comes back as it was.
 */
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

/**
 * An example of ours (a rule's `e.g.`) as it is shown: as it is, or, where the masking would hide it (a
 * CPF-shaped number, `52998224725`, shown `*********25`), its shape, each number a `#` (`###########`).
 * So an example is never shown masked.
 */
export function shownExample(example: string): string {
  return redactText(example) === example ? example : example.replace(/\p{N}/gu, '#');
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

// A URL inside free text (an error message names the request's): up to white space, a quote or a
// closing parenthesis.
const URL_IN_TEXT = /\b[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s"'<>)]+/g;

// A query inside free text that is no absolute URL (a provider echoing `/v2/keys?cursor=…`, or `&cursor=…`
// alone): a name, `=` and a value after `?` or `&`, up to white space, a quote or a closing parenthesis.
const QUERY_PAIR_IN_TEXT = /([?&])([^\s=&?#"'<>)]+)=([^\s&#"'<>)]*)/g;
/** A value of the call's query shorter than this is not looked for by value (`limit=5`). */
const MIN_QUERY_VALUE = 4;

/**
 * Free text (an error's message, provider text in it) with no query value: every URL as
 * `hideQueryValues` shows one (query names kept, each value `REDACTED`, no fragment), every `?name=value`
 * or `&name=value` pair outside one the same way (a relative URL the provider echoed), and each of
 * `values` (the call's own query values, from 4 characters) wherever it stands, written as it is or
 * percent-encoded. For what a tracing backend keeps, where a query value (an account, a cursor) is not
 * shown at all.
 */
export function hideQueryValuesIn(text: string, values: readonly string[] = []): string {
  let shown = text
    .replace(URL_IN_TEXT, (url) => hideQueryValues(url))
    .replace(QUERY_PAIR_IN_TEXT, (_, separator: string, name: string) => `${separator}${name}=${HIDDEN_QUERY_VALUE}`);
  const known = new Set<string>();
  for (const value of values)
    if (value.length >= MIN_QUERY_VALUE) for (const form of [value, encodeURIComponent(value)]) known.add(form);
  // The longest first: a value inside another is not left half shown.
  for (const value of [...known].sort((a, b) => b.length - a.length))
    shown = shown.split(value).join(HIDDEN_QUERY_VALUE);
  return shown;
}

// `Bearer` and what follows it up to the next path segment, the separator written or encoded.
const PATH_BEARER = /(bearer(?:[ +]|%20|%09)+)[^/]+/gi;
const everyDigit = (text: string): string => text.replace(/[0-9]/g, '*');

/**
 * A request path as a log of our servers shows it: no query string (query values may be personal
 * data), every digit of a run of eleven digits or more masked (the CPF rule's digits and gaps, read
 * through percent-encoding too; a log of requests keeps no check digits), what stood between them
 * kept, a bearer credential masked, control characters escaped. A run written encoded is shown
 * decoded and encoded again, masked.
 */
export function redactPath(url: string | undefined): string {
  const path = normalizeDigits((url ?? '/').split('?')[0]!);
  const readings = readingsOf(path);
  const findings: Finding[] = [];
  // A DIGIT_RUN holds a CPF's 11 digits or more: a log of our servers masks each whole.
  for (const reading of readings.length === 0 ? [asRead(path)] : readings)
    for (const match of reading.text.matchAll(DIGIT_RUN))
      findings.push({
        start: fromOf(reading, match.index),
        end: toOf(reading, match.index + match[0].length - 1),
        secret: false,
      });
  const shown = applyFindings(path, findings, (written) =>
    ENCODED_ANYHOW.test(written) || written.includes('+')
      ? encodeUnsafe(everyDigit(decoded(written, true)))
      : everyDigit(written),
  );
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
  /** The most values walked (MAX_JSON_NODES); past them an array or object ends with a count of what is left out. */
  maxNodes?: number;
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
  const maxNodes = options.maxNodes ?? MAX_JSON_NODES;
  let root: unknown;
  const stack: Pending[] = [{ node: value, key: '', depth: 0, put: (copy) => (root = copy) }];
  // Values taken to be walked so far, the root included: a body of a million members costs no more than the bound.
  let taken = 1;
  const room = (wanted: number): number => {
    const granted = Math.max(0, Math.min(wanted, maxNodes - taken));
    taken += granted;
    return granted;
  };
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
        const walked = room(node.length);
        const copy: unknown[] = new Array(walked);
        put(copy);
        for (let index = 0; index < walked; index += 1) {
          stack.push({ node: node[index], key, depth: depth + 1, put: (inner) => (copy[index] = inner) });
        }
        if (walked < node.length) copy.push(`… (${node.length - walked} more items not shown)`);
      } else {
        const copy: Record<string, unknown> = {};
        put(copy);
        const members = Object.entries(node).filter(([, inner]) => inner !== undefined);
        const walked = room(members.length);
        for (const [name, inner] of members.slice(0, walked)) {
          const shown = define(copy, redactBounded(name, list), undefined);
          stack.push({ node: inner, key: name, depth: depth + 1, put: (item) => (copy[shown] = item) });
        }
        if (walked < members.length) define(copy, '…', `${members.length - walked} more members not shown`);
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

// ---------------------------------------------------------------------------------------------
// The one holder of a client's secrets

const NO_VALUES: readonly string[] = Object.freeze([]);

/**
 * The values one client must never show (its token and every token its source issued that is still
 * alive, the client secret and its Basic value, the client id, a call's DocumentNumber), and the one
 * way the text that client shows is built: every error (`ErrorContext.secrets`, required), event, log
 * line, span text and `.withResponse()` field of the client is made through the methods here, which
 * apply this module's rules with these values. The values are read at each use (a token source
 * issues tokens as it goes) and are never shown: not by `JSON.stringify`, `String` or `util.inspect`.
 */
export class Secrets {
  /** Holds no value: for what is built before any secret is known (a client's options being checked); every rule still applies. */
  static readonly none: Secrets = new Secrets(() => NO_VALUES);

  readonly #read: () => Iterable<string>;

  private constructor(read: () => Iterable<string>) {
    this.#read = read;
  }

  /** Secrets of `values`, or of what `values()` returns at each use. */
  static of(values: Iterable<string> | (() => Iterable<string>)): Secrets {
    if (typeof values === 'function') return new Secrets(values);
    const fixed = [...values];
    return new Secrets(() => fixed);
  }

  /** These secrets and `more` (the numbers a call carries). */
  with(more: readonly string[]): Secrets {
    return more.length === 0 ? this : new Secrets(() => [...this.#read(), ...more]);
  }

  /** These secrets with their values as they are now, read once (for one event or one answer's many fields). */
  now(): Secrets {
    const values = [...this.values()];
    return new Secrets(() => values);
  }

  /** The values as they are now. */
  values(): readonly string[] {
    const values = this.#read();
    return Array.isArray(values) ? (values as readonly string[]) : [...values];
  }

  /** Free text masked (redactText). */
  text(text: string): string {
    return redactText(text, this.values());
  }

  /** One piece of provider text masked and bounded (redactBounded). */
  bounded(text: string, max = MAX_PROVIDER_TEXT): string {
    return redactBounded(text, this.values(), max);
  }

  /** A message of ours on one line of a terminal (redactMessage): masked, its control characters escaped. */
  message(text: string): string {
    return redactMessage(text, this.values());
  }

  /** Text for one line of a log or a terminal: masked, bounded, its control characters escaped. */
  line(text: string, max = MAX_PROVIDER_TEXT): string {
    return escapeControls(this.bounded(text, max));
  }

  /**
   * A value the provider sent, quoted where it is shown (a `token_type`, an `error_uri`, an OAuth
   * `error`): masked with these values as credentials known exactly (from 4 characters), and bounded.
   */
  quote(value: string, max = MAX_PROVIDER_TEXT): string {
    return redactBounded(value, this.values(), max, redactCredentials);
  }

  /** Text shown whole (an answer relayed as it came), masked with these values as credentials known exactly (redactCredentials). */
  credentials(text: string): string {
    return redactCredentials(text, this.values());
  }

  /** A URL as it may be shown (redactUrl). */
  url(url: string): string {
    return redactUrl(url, this.values());
  }

  /** A deep copy of a structure with every string masked and bounded, member names too (redactJson). */
  json<T>(value: T): T {
    return redactJson(value, this.values());
  }

  /** Header values by name (redactHeaders). */
  headers(headers: Record<string, unknown>): Record<string, string> {
    return redactHeaders(headers, this.values());
  }

  /** A copy of an error that is safe to keep as `cause` (redactedCause). */
  cause(error: unknown): Error {
    return redactedCause(error, this.values());
  }

  /** What JSON shows of it: no value. */
  toJSON(): string {
    return MASK;
  }
}

// ---------------------------------------------------------------------------------------------
// The holder of a token source's secrets, and the one a client made

// Tokens the source gave, so errors can mask them even if a server echoes one back long after: a
// rotating source's older tokens may still be alive. A source that knows its tokens' lives
// (clientCredentials) also tells them through `secrets()`, read at each use.
export const TOKENS_REMEMBERED = 64;

/** What a token source may tell of its secrets (the client's `TokenSource`, clientCredentials' source). */
export type SecretsSource =
  | string
  | (((...args: never[]) => unknown) & { secrets?: (() => readonly string[]) | undefined })
  | undefined;

/** One holder of secrets for one token source, and how it learns each token the source gives. */
export interface SecretsHolder {
  /** The token source's own secrets (read at each use) and the tokens it gave, the latest TOKENS_REMEMBERED kept. */
  readonly secrets: Secrets;
  /** Learns a token the source gave (a fixed token is learnt at once). */
  remember(token: string): void;
}

/**
 * The secrets of whatever sends with `token` (a client, or verify, which sends without one): the
 * source's own (clientCredentials: the client secret, the client id, their Basic value and every token
 * it issued that is still alive), asked at each use, and the tokens it was given.
 */
export function heldSecrets(token: SecretsSource): SecretsHolder {
  const source = typeof token === 'string' ? undefined : token;
  const given: string[] = [];
  const holder: SecretsHolder = {
    secrets: Secrets.of(() => {
      const own = source?.secrets?.();
      return own === undefined || own.length === 0 ? given : [...own, ...given];
    }),
    remember(value) {
      if (given.includes(value)) return;
      given.push(value);
      if (given.length > TOKENS_REMEMBERED) given.shift();
    },
  };
  if (typeof token === 'string') holder.remember(token);
  return holder;
}

const HELD = new WeakMap<object, Secrets>();

/** Records the holder `client` was made with (createBaasClient, once). */
export function holdClientSecrets(client: object, secrets: Secrets): void {
  HELD.set(client, secrets);
}

/**
 * The one Secrets a client made (createBaasClient): its token, every token its source issued that is
 * still alive, its client secret; the command line builds its lines, reports and journals through it.
 */
export function clientSecrets(client: object): Secrets {
  const secrets = HELD.get(client);
  if (secrets === undefined) throw new TypeError('clientSecrets: not a client made by createBaasClient');
  return secrets;
}
