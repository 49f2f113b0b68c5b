// What a bearer token is not: the whole header value, or a line of text with its line break. The sandbox's
// banner and a provider's docs show `Authorization: Bearer sbx_…`, and a token copied with its "Bearer "
// goes out as "Bearer Bearer sbx_…", which the service refuses with a 401 that names nothing. A token read
// from a file, or from a .env saved on Windows, keeps its line ending, which no header may carry. One rule
// for the client's token (an option or a token source's answer) and the command line's --token and
// BAAS_TOKEN, so all say it alike. A token is RFC 6750's b64token, which has no space and no control
// character: nothing refused here can be a token.
const HEADER_VALUE = /^\s*(authorization\s*:\s*)?bearer\s/i;
// C0 controls and DEL: CR/LF would split the Authorization header.
const CONTROL = /[\u0000-\u001f\u007f]/;
const LINE_BREAK_AT_END = /^[^\u0000-\u001f\u007f]*[\r\n]+$/;

/**
 * Why `token` is not the text of a token alone (the whole header value, a line break at its end, a
 * control character), in words that say what to do; undefined when it is.
 */
export function tokenTextProblem(token: string): string | undefined {
  if (HEADER_VALUE.test(token))
    return 'starts with "Bearer ", as the Authorization header does: give the token alone, "Bearer " is added to it';
  if (LINE_BREAK_AT_END.test(token))
    return 'ends with a line break, as a token read from a file or a .env saved on Windows does: give the token alone, without it';
  return CONTROL.test(token)
    ? 'holds a control character (a tab, a line break, an escape): give the token alone, as one line of text'
    : undefined;
}
