// What a bearer token is: RFC 6750's b64token, 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=",
// so a character outside it means the text given is not the token alone, and the service would answer
// a 401 that names nothing (or, for a line break, the header could not be sent at all). The likeliest
// ways it happens are said in their own words, the most helpful first: the whole header value (the
// sandbox's banner and a provider's docs show `Authorization: Bearer sbx_…`, and a token copied with
// its "Bearer " goes out as "Bearer Bearer sbx_…"); a line ending kept from a file or a .env saved on
// Windows; a control character; then any other character, named by its code point (the README's
// placeholder `sbx_…` copied as it is holds U+2026). One rule for the client's token (an option or a
// token source's answer) and the command line's --token and BAAS_TOKEN, so all say it alike. The
// words never show the token, only the one character that cannot be in it.
const HEADER_VALUE = /^\s*(authorization\s*:\s*)?bearer\s/i;
// C0 controls and DEL: CR/LF would split the Authorization header.
const CONTROL = /[\u0000-\u001f\u007f]/;
const LINE_BREAK_AT_END = /^[^\u0000-\u001f\u007f]*[\r\n]+$/;
/** RFC 6750 §2.1 b64token: these characters, then only "=" (its padding) to the end. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const B64TOKEN_CHAR = /[A-Za-z0-9\-._~+/]/;

// What a character is called, by its Unicode category where one word says it (no name table). Each
// pattern is tried on one code point, so none needs anchors.
const KINDS: readonly [RegExp, string][] = [
  [/\u2026/, 'an ellipsis'],
  [/\p{Zs}/u, 'a space'],
  [/[\p{Pi}\p{Pf}"']/u, 'a quotation mark'],
  [/\p{Cf}/u, 'an invisible character'],
  [/\p{Cc}/u, 'a control character'],
];
// A character that shows when printed (letters, marks, numbers, punctuation, symbols), tried on one code point.
const SHOWS = /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u;

/** `'…' (U+2026, an ellipsis)`, `a space (U+00A0)`: the character when it shows, its code point, and what it is where cheap. */
function named(char: string): string {
  const point = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  const kind = KINDS.find(([pattern]) => pattern.test(char))?.[1];
  return SHOWS.test(char) ? `'${char}' (${point}${kind ? `, ${kind}` : ''})` : `${kind ?? 'a character'} (${point})`;
}

/**
 * Why `token` is not the text of a token alone (the whole header value, a line break at its end, a
 * control character, any other character a b64token has not), in words that say what to do, naming
 * at most that one character; undefined when it is one (or empty: a missing token, the caller's to say).
 */
export function tokenTextProblem(token: string): string | undefined {
  if (HEADER_VALUE.test(token))
    return 'starts with "Bearer ", as the Authorization header does: give the token alone, "Bearer " is added to it';
  if (LINE_BREAK_AT_END.test(token))
    return 'ends with a line break, as a token read from a file or a .env saved on Windows does: give the token alone, without it';
  if (CONTROL.test(token))
    return 'holds a control character (a tab, a line break, an escape): give the token alone, as one line of text';
  // An empty text is a token missing, not a wrong one: the caller's own words say so.
  if (token === '' || B64TOKEN.test(token)) return undefined;
  const unpadded = token.replace(/=+$/, '');
  const char = [...unpadded].find((c) => !B64TOKEN_CHAR.test(c));
  if (char === undefined) return 'is only "=", the padding at a token\'s end: give the whole token';
  if (char === '=')
    return 'holds "=" before its end, which no token has ("=" only pads its end): copy the whole token as it was issued';
  return `holds ${named(char)}, which no token has: copy the whole token as it was issued (the sandbox prints one when it starts)`;
}
