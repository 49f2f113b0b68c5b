// Provider text in a span's status and exception.message never carries a query value: the client's
// error message quotes the provider's words, and a provider may echo the request's path and query
// (`failed /v2/api/pix/keys/list-keys?limit=5&cursor=…`), a relative URL the absolute-URL rule missed.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createBaasClient } from '../../src/index.js';
import { hideQueryValuesIn } from '../../src/redact.js';
import { serialized, startOtel, stopOtel } from '../tracing/otel-setup.js';

const { exporter } = startOtel();
afterAll(stopOtel);
beforeEach(() => exporter.reset());

const CURSOR = 'SECRETcursorValue42';

/** A client whose provider answers 503 with `body(url)` as plain text. */
const echoing = (body: (url: string) => string) =>
  createBaasClient({
    baseUrl: 'https://provider.test',
    token: 'tok_ABCdef123456',
    retry: false,
    fetch: async (url) => new Response(body(String(url)), { status: 503, headers: { 'content-type': 'text/plain' } }),
  });

describe("the call's query values never reach a span", () => {
  it.each([
    ['the path and query, as a relative URL', (url: string) => `failed ${new URL(url).pathname}${new URL(url).search}`],
    ['a pair alone, after &', () => `failed at &cursor=${CURSOR} again`],
    ['the value alone, in words', () => `the cursor ${CURSOR} is unknown`],
    ['the value percent-encoded', () => `bad ${encodeURIComponent(`${CURSOR}~`)}`],
  ])('%s', async (_, body) => {
    const error = await echoing(body)
      .listPixKeys({ limit: 5, cursor: CURSOR })
      .then(
        () => new Error('no error'),
        (caught: unknown) => caught as Error,
      );
    // The message itself is the caller's and keeps the provider's words (masked for secrets only).
    expect(error.message).toContain('503');
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(1);
    expect(spans[0]!.status.message).toMatch(/503/);
    expect(serialized(spans)).not.toContain(CURSOR);
  });
});

describe('hideQueryValuesIn', () => {
  it('a relative URL and a pair after & lose their values, names kept; prose with = is left', () => {
    expect(hideQueryValuesIn('failed /v2/k?limit=5&cursor=abc then')).toBe(
      'failed /v2/k?limit=REDACTED&cursor=REDACTED then',
    );
    expect(hideQueryValuesIn('x &cursor=abc) y')).toBe('x &cursor=REDACTED) y');
    expect(hideQueryValuesIn('a=b means nothing')).toBe('a=b means nothing');
  });

  it("the call's values, from 4 characters, wherever they stand, as written and percent-encoded", () => {
    expect(hideQueryValuesIn('cursor abc~/d and abc~%2Fd', ['abc~/d'])).toBe('cursor REDACTED and REDACTED');
    expect(hideQueryValuesIn('page 5 of 500', ['5'])).toBe('page 5 of 500');
    expect(hideQueryValuesIn('1234 and 123456', ['1234', '123456'])).toBe('REDACTED and REDACTED');
  });
});
