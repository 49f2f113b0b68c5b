// What a bearer token is not: the whole header value. The sandbox's banner and a provider's docs show
// `Authorization: Bearer sbx_…`, and a token copied with its "Bearer " goes out as "Bearer Bearer sbx_…",
// which the service refuses with a 401 that names nothing. One rule for the client's token (an option or a
// token source's answer) and the command line's --token, so both say it alike. A token is RFC 6750's
// b64token, which has no space: nothing that starts this way can be a token.
const HEADER_VALUE = /^\s*(authorization\s*:\s*)?bearer\s/i;

/** Why `token` is the header value rather than the token, in words that say what to do; undefined when it is not. */
export function headerValueProblem(token: string): string | undefined {
  return HEADER_VALUE.test(token)
    ? 'starts with "Bearer ", as the Authorization header does: give the token alone, "Bearer " is added to it'
    : undefined;
}
