// Text from a request made safe for one line of the request log: control characters escaped (no
// forged line, no terminal colours), and in a path, what may be a CPF or a bearer token masked.
// The masking is local rather than src/redact.ts's redactText: the log masks every digit of a run
// (redactText keeps the last two) and reads percent-encoded separators, which a path carries.

// C0 and C1 controls, DEL, format characters (bidi overrides that reorder what a terminal shows),
// the Unicode line and paragraph separators, and the backslash, so that an escape cannot be faked.
const UNSAFE = /[\p{Cc}\p{Cf}\u2028\u2029\\]/gu;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' };

/** `text` with every control character written as an escape (`\n`, `\x1b`, `\u202e`). */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, (char) => {
    const code = char.codePointAt(0)!;
    return (
      NAMED[char] ??
      (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`)
    );
  });
}

// A digit, written or percent-encoded; between two digits at most one separator a CPF is written
// with (dot, dash, space, underscore, plus), written or percent-encoded.
const DIGIT = '(?:[0-9]|%3[0-9])';
const SEPARATOR = '(?:[.\\-_ +]|%2[0BDE]|%5F)';
// Eleven digits or more in such a run may be a CPF (529.982.247-25, 529%20982%20247%2025, 52998224725).
const DIGIT_RUN = new RegExp(`${DIGIT}(?:${SEPARATOR}?${DIGIT}){10,}`, 'gi');
// Read token by token, so that the digits of an encoded separator (%20) are not taken for digits.
const TOKEN = /%[0-9a-f]{2}|[\s\S]/gi;
const maskRun = (run: string): string =>
  run.replace(TOKEN, (token) => (/^(?:[0-9]|%3[0-9])$/.test(token) ? '*' : token));
// `Bearer` and what follows it up to the next path segment, the separator written or encoded.
const BEARER = /(bearer(?:[ +]|%20|%09)+)[^/]+/gi;

/**
 * The path of a request as the log shows it: no query string (query values may be personal data),
 * every digit of a run of eleven or more masked, separators kept, a bearer credential masked,
 * control characters escaped.
 */
export function loggedPath(url: string | undefined): string {
  const path = (url ?? '/').split('?')[0]!;
  const masked = path.replace(DIGIT_RUN, maskRun).replace(BEARER, '$1***');
  return escapeControls(masked);
}
