// Whatever a server answers (random status, headers, bodies, truncation, delays past the timeout),
// every client call settles in bounded time, as data or as a BaasError, and never leaks the token.
import { fc, test } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { BaasError, createBaasClient } from '../../src/index.js';
import { startFaultServer, type FaultServer } from '../support/fault-server.js';
import { SECRET_TOKEN, VALID_ACCOUNT, VALID_CPF, firstPageKeys } from '../support/fixtures.js';

const TIMEOUT_MS = 60;
const ATTEMPTS = 2;
const MAX_DELAY_MS = 5;
// Generous for a loaded 2-core machine; a hang would blow through any of it.
const SLACK_MS = 1_500;
const DEADLINE_MS = TIMEOUT_MS * ATTEMPTS + MAX_DELAY_MS + SLACK_MS;

const validPage = JSON.stringify({ cursor: { next: null }, data: firstPageKeys() });

const behaviour = fc.record({
  status: fc.integer({ min: 200, max: 599 }),
  contentType: fc.constantFrom('application/json', 'application/problem+json', 'text/html', 'text/plain', 'application/octet-stream', undefined),
  retryAfter: fc.option(fc.oneof(fc.constantFrom('0', '1', '-3', 'soon', 'Wed, 21 Oct 2015 07:28:00 GMT'), fc.nat({ max: 100 }).map(String)), { nil: undefined }),
  headers: fc.dictionary(fc.stringMatching(/^x-[a-z]{1,12}$/), fc.stringMatching(/^[ -~]{0,40}$/), { maxKeys: 4 }),
  body: fc.oneof(
    fc.constant(validPage),
    fc.json().map((text) => text),
    fc.nat({ max: validPage.length }).map((n) => validPage.slice(0, n)),
    fc.string({ maxLength: 200 }),
    fc.constant(''),
  ),
  headerDelayMs: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 0, max: TIMEOUT_MS * 2 })),
  ending: fc.constantFrom('complete', 'complete', 'complete', 'stall', 'reset', 'silent'),
  operation: fc.constantFrom('list', 'update'),
});
type Behaviour = typeof behaviour extends fc.Arbitrary<infer T> ? T : never;

let server: FaultServer;
let current: Behaviour | undefined;

beforeAll(async () => {
  server = await startFaultServer();
  server.handle((req, res) => {
    const b = current!;
    if (b.ending === 'silent') return;
    setTimeout(() => {
      if (b.ending === 'reset') return req.socket.destroy();
      const headers: Record<string, string> = { ...b.headers };
      if (b.contentType) headers['content-type'] = b.contentType;
      if (b.retryAfter !== undefined) headers['retry-after'] = b.retryAfter;
      res.writeHead(b.status, headers);
      if (b.ending === 'stall') return void res.write(b.body.slice(0, Math.floor(b.body.length / 2)));
      res.end(b.body);
    }, b.headerDelayMs);
  });
});
afterAll(() => server.close());

describe('the client never hangs', () => {
  test.prop([behaviour], { seed: 20261122, numRuns: 200 })('settles as data or a BaasError within the bound', async (b) => {
    current = b;
    const client = createBaasClient({
      baseUrl: server.url,
      token: SECRET_TOKEN,
      timeoutMs: TIMEOUT_MS,
      retry: { maxAttempts: ATTEMPTS, baseDelayMs: 1, maxDelayMs: MAX_DELAY_MS, maxElapsedMs: 200 },
    });
    const call =
      b.operation === 'list'
        ? client.listPixKeys()
        : client.updateNaturalPerson({ account: VALID_ACCOUNT, documentNumber: VALID_CPF, body: { socialName: 'Maria' } });
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'hung'>((resolve) => {
      timer = setTimeout(() => resolve('hung'), DEADLINE_MS);
    });
    const outcome = await Promise.race([call.then((data) => ({ data }), (error: unknown) => ({ error })), deadline]);
    clearTimeout(timer);
    expect(outcome).not.toBe('hung');
    if (outcome !== 'hung' && 'error' in outcome) {
      expect(outcome.error).toBeInstanceOf(BaasError);
      expect(JSON.stringify(outcome.error) + String(outcome.error)).not.toContain(SECRET_TOKEN);
    }
  });
});
