// The one reading of `Retry-After` (RFC 9110 §10.2.3) for every part that sends: the client's retry
// decision, its BaasApiError, and verify's wait. It lives here so no part grows its own reading again:
// verify's copy read "1.5" with a bare Date.parse (a date in 2001) and so retried at once.

const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /;
// delay-seconds is 1*DIGIT; a decimal fraction (some servers send "1.5") is read as the seconds it says
// rather than dropped, as Stainless' clients do. Nothing else that Number() would take ("1e3", "-5", ".5").
const SECONDS = /^[0-9]+(\.[0-9]+)?$/;
// Bounds the work done on a header a server controls (as the RateLimit fields are bounded): the longest
// HTTP date is 33 characters (rfc850-date), and the contract's delay is at most 86,400 s. A longer value
// is read no further than to tell a delay (all digits: a wait longer than any ceiling, so the caller
// refuses it as it refuses any wait past its ceiling, rather than retrying sooner than the server asked)
// from anything else (unreadable, like any value that is neither form).
export const MAX_RETRY_AFTER_CHARS = 64;

/**
 * `Retry-After` as milliseconds: delay-seconds (a decimal fraction allowed) or an HTTP date, which
 * counts from `now`. Undefined when absent or unreadable; Infinity for delay-seconds longer than
 * MAX_RETRY_AFTER_CHARS; never negative.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (value.length > MAX_RETRY_AFTER_CHARS) return SECONDS.test(trimmed) ? Number.POSITIVE_INFINITY : undefined;
  const seconds = SECONDS.exec(trimmed);
  if (seconds) return secondsToMs(trimmed, seconds[1]);
  // Only an HTTP date (RFC 9110 §5.6.7: it names the day and the month): Date.parse would also read
  // "-5" or "1.5" as dates long past, which would mean "retry at once".
  if (!HTTP_DATE.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Whole milliseconds from the digits themselves (1.1 × 1000 is 1100.0000000000002 in floating point),
 * rounded up: a server that asked for 1.0005 s is never called back before it said.
 */
function secondsToMs(text: string, fraction: string | undefined): number {
  const whole = Number(fraction === undefined ? text : text.slice(0, -fraction.length)) * 1000;
  if (fraction === undefined) return whole;
  const digits = fraction.slice(1);
  const ms = Number(digits.slice(0, 3).padEnd(3, '0'));
  return whole + ms + (/[1-9]/.test(digits.slice(3)) ? 1 : 0);
}

/** The `Retry-After` of an answer, in milliseconds (see parseRetryAfter). */
export const retryAfterOf = (response: Response, now?: number): number | undefined =>
  parseRetryAfter(response.headers.get('retry-after'), now);
