// Which hosts plain http may go to without a flag saying so: only this machine. Shared by every
// place that sends a secret (the client, the token request, `verify`), so the rule cannot drift apart.

const LOOPBACK = /^(localhost|127(\.[0-9]{1,3}){3}|\[::1\])$/i;

/** True for `localhost`, `127.x.y.z` and `[::1]`, as a WHATWG URL's `hostname` spells them. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.test(hostname);
}

/**
 * True when `url` is plain http to a host that is not loopback: a bearer token or secret would travel
 * in clear. A string that is no URL is not judged here (false): the caller refuses it on its own terms.
 */
export function isInsecureRemote(url: URL | string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname);
}
