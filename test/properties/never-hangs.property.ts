// Whatever a server answers — random status, headers, redirects, bodies that are truncated, lie
// about their length, drip or stall, delays past the timeout, resets — every client call (each
// operation of test/support/operations.ts, and `raw`) settles
// within timeout × attempts plus the retry budget, as data or as a BaasError, never leaks the
// token or the CPF, leaves no unhandled rejection, and never carries the token to another origin.
import { fc, test } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { BaasError, createBaasClient, type BaasErrorKind } from '../../src/index.js';
import { startFaultServer, type FaultServer } from '../support/fault-server.js';
import { SECRET_TOKEN, VALID_CPF, exampleValue, firstPageKeys } from '../support/fixtures.js';
import { OPERATIONS, callBy, callNames } from '../support/operations.js';
import {
  leakedSecrets,
  openTcpHandles,
  settleWithin,
  tcpHandlesSettle,
  watchUnhandledRejections,
} from '../support/reliability.js';
import { type Depth, runsAt } from './depth.js';

const TIMEOUT_MS = 80;
/**
 * The timeout of a call whose answer comes at once and whole (see answersAtOnce): long enough that
 * no load makes the timer beat an answer already on its way, so the oracle's outcome stands.
 */
const ANSWER_TIMEOUT_MS = 5_000;
const ATTEMPTS = 2;
const MAX_DELAY_MS = 5;
const MAX_ELAPSED_MS = 200;
const FULL_RUNS = 300;
/** The client's own bound for a timeout: attempts of at most `timeoutMs`, retries starting within MAX_ELAPSED_MS. */
const boundMs = (timeoutMs: number): number =>
  Math.max(timeoutMs * ATTEMPTS + MAX_DELAY_MS * (ATTEMPTS - 1), MAX_ELAPSED_MS + timeoutMs);
/**
 * Room for the client's own work between its timers. The bound is measured in on-time ms
 * (settleWithin): time the process was descheduled or its loop busy does not count, so this slack
 * need not cover load; a hang still fails after about bound + slack.
 */
const SLACK_MS = 750;

const validPage = JSON.stringify({ cursor: { next: null }, data: firstPageKeys() });
const problem = (status: number) =>
  JSON.stringify({ type: 'about:blank', title: 'Something failed', status, detail: 'Try again later' });

type BodyKind = 'page' | 'update-result' | 'problem' | 'json' | 'truncated' | 'text' | 'html' | 'empty';
const body: fc.Arbitrary<{ kind: BodyKind; text: string }> = fc.oneof(
  fc.constant({ kind: 'page' as const, text: validPage }),
  fc.constant({ kind: 'update-result' as const, text: JSON.stringify(exampleValue('UpdateSucceeded')) }),
  fc.integer({ min: 400, max: 599 }).map((status) => ({ kind: 'problem' as const, text: problem(status) })),
  fc.json({ maxDepth: 3 }).map((text) => ({ kind: 'json' as const, text })),
  fc.nat({ max: validPage.length - 1 }).map((n) => ({ kind: 'truncated' as const, text: validPage.slice(0, n) })),
  fc.string({ maxLength: 200, unit: 'binary' }).map((text) => ({ kind: 'text' as const, text })),
  fc.constant({ kind: 'html' as const, text: '<!doctype html><html><body><h1>502 Bad Gateway</h1></body></html>' }),
  fc.constant({ kind: 'empty' as const, text: '' }),
);

const statusCodes = [200, 201, 204, 301, 302, 303, 307, 308, 400, 401, 403, 404, 422, 429, 500, 502, 503, 504];
const fields = {
  operation: fc.constantFrom(...callNames),
  status: fc.oneof(fc.integer({ min: 200, max: 599 }), fc.constantFrom(...statusCodes)),
  contentType: fc.constantFrom(
    'application/json',
    'application/problem+json',
    'application/json; charset=utf-8',
    'text/html',
    'text/plain',
    'application/octet-stream',
    'application/xml',
    undefined,
  ),
  contentEncoding: fc.constantFrom(undefined, undefined, undefined, 'gzip', 'br', 'identity', 'x-unknown'),
  location: fc.constantFrom(
    undefined,
    'same-path',
    'same-absolute',
    'other-origin',
    'refused-origin',
    'protocol-relative',
    'garbage',
  ),
  retryAfter: fc.option(
    fc.oneof(
      fc.constantFrom('0', '1', '-3', 'soon', '1.5', 'Wed, 21 Oct 2015 07:28:00 GMT', 'Fri, 31 Dec 9999 23:59:59 GMT'),
      fc.nat({ max: 100 }).map(String),
    ),
    {
      nil: undefined,
    },
  ),
  headers: fc.dictionary(fc.stringMatching(/^x-[a-z]{1,12}$/), fc.stringMatching(/^[ -~]{0,40}$/), { maxKeys: 4 }),
  body,
  /** Put what the server received (the bearer token, the URL with the CPF) into the body. */
  echo: fc.boolean(),
  length: fc.constantFrom('honest', 'honest', 'honest', 'chunked', 'chunked', 'overstated'),
  headerDelayMs: fc.oneof(
    { weight: 4, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: TIMEOUT_MS * 2 }) },
  ),
  pieces: fc.integer({ min: 1, max: 4 }),
  pieceDelayMs: fc.oneof(
    { weight: 3, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: TIMEOUT_MS }) },
  ),
  ending: fc.constantFrom(
    'complete',
    'complete',
    'complete',
    'complete',
    'complete',
    'complete',
    'stall',
    'reset-mid-body',
    'reset-before-headers',
    'silent',
  ),
};
/**
 * Half chaos (anything goes), half plain answers: complete, immediate, no encoding or redirect, so
 * that the oracle below can say which outcome the documented behaviour requires.
 */
const behaviour = fc.oneof(
  fc.record(fields),
  fc.record({
    ...fields,
    status: fc.constantFrom(...statusCodes),
    contentType: fc.constantFrom('application/json', 'application/problem+json', 'text/html', 'text/plain', undefined),
    contentEncoding: fc.constant(undefined),
    location: fc.constant(undefined),
    length: fc.constantFrom('honest', 'chunked'),
    headerDelayMs: fc.constant(0),
    pieceDelayMs: fc.constant(0),
    ending: fc.constant('complete'),
  }),
);
type Behaviour = typeof behaviour extends fc.Arbitrary<infer T> ? T : never;

const isJsonType = (type: string | undefined): boolean => type !== undefined && /json/.test(type);

/** The server answers at once, whole and plainly: no delay, stall, reset, encoding or redirect. */
function answersAtOnce(b: Behaviour): boolean {
  const immediate = b.headerDelayMs === 0 && (b.pieces === 1 || b.pieceDelayMs === 0);
  const plain =
    b.ending === 'complete' &&
    b.length !== 'overstated' &&
    (b.contentEncoding === undefined || b.contentEncoding === 'identity');
  return immediate && plain && b.location === undefined;
}

/**
 * The outcome the client's documented behaviour requires, in the clear-cut cases (nothing near a
 * time limit, nothing this oracle does not model); undefined elsewhere.
 */
function expectedKind(b: Behaviour): BaasErrorKind | 'data' | undefined {
  if (b.ending === 'silent') return 'timeout';
  if (b.ending === 'reset-before-headers') return 'network';
  if (b.headerDelayMs > TIMEOUT_MS * 1.5) return 'timeout';
  // Any answer goes back to openapi-fetch, which reads it its own way.
  if (b.operation === 'raw') return undefined;
  const emptyOk = OPERATIONS[b.operation].success === 'any-object-or-empty';
  if (!answersAtOnce(b)) return undefined;
  const { kind, text } = b.body;
  // As served: the echo makes a text body non-blank (see the server below).
  const empty = kind === 'empty' || (text.trim() === '' && !(b.echo && kind !== 'json'));
  const invalidJson = !empty && (kind === 'html' || kind === 'truncated');
  const object = kind === 'page' || kind === 'update-result' || kind === 'problem';
  if (b.status >= 300 && b.status < 400) return 'response'; // a 3xx not followed
  if (b.status >= 400) {
    if (kind === 'html') return 'response'; // an HTML error page
    if (isJsonType(b.contentType) && invalidJson) return 'response';
    if (empty || (object && isJsonType(b.contentType))) return 'api';
    return undefined;
  }
  // 2xx
  if (b.status === 204 || empty) return emptyOk ? 'data' : 'response';
  if (!isJsonType(b.contentType) && b.contentType !== undefined) return 'response'; // not JSON
  if (invalidJson) return 'response';
  if (kind === 'page') return 'data';
  if (object) return emptyOk ? 'data' : 'response'; // a list needs its data array
  return undefined;
}

/**
 * Answers that once left a call pending (Node's fetch re-sending after a 421 and then reading a cut
 * body; a body declared gzip that is not): both depths try them before their seeded runs.
 */
const ONCE_HUNG: [Behaviour][] = (['updateNaturalPerson', 'listPixKeys', 'raw'] as const).flatMap((operation) => {
  const plain = {
    operation,
    contentType: 'application/json',
    contentEncoding: undefined,
    location: undefined,
    retryAfter: undefined,
    headers: {},
    body: { kind: 'page' as const, text: validPage },
    echo: false,
    length: 'honest',
    headerDelayMs: 0,
    pieces: 1,
    pieceDelayMs: 0,
  } as const;
  return [
    [
      {
        ...plain,
        status: 421,
        contentType: 'application/problem+json',
        body: { kind: 'problem', text: problem(421) },
        ending: 'reset-mid-body',
      },
    ],
    [{ ...plain, status: 200, contentEncoding: 'gzip', length: 'chunked', ending: 'complete' }],
  ] satisfies [Behaviour][];
});

/** The property, at `depth` (./depth.ts): never-hangs.test.ts quick, never-hangs.matrix.test.ts full. */
export function neverHangs(depth: Depth): void {
  const numRuns = runsAt(depth, FULL_RUNS, 30);
  let server: FaultServer;
  let elsewhere: FaultServer;
  let current: Behaviour | undefined;
  let handlesBefore = 0;
  const unhandled = watchUnhandledRejections();
  let slowest = 0;

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  beforeAll(async () => {
    handlesBefore = openTcpHandles();
    [server, elsewhere] = await Promise.all([startFaultServer(), startFaultServer()]);
    elsewhere.handle((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(validPage));
    server.handle(async (req, res) => {
      const b = current!;
      // Writing to a socket the client already dropped must not crash the server.
      res.on('error', () => undefined);
      if (b.ending === 'silent') return;
      if (b.ending === 'reset-before-headers') return void req.socket.destroy();
      await sleep(b.headerDelayMs);
      const echoed = `${req.headers.authorization ?? ''} ${req.url ?? ''}`;
      const { kind, text: original } = b.body;
      // Inside the JSON objects (so they stay valid), after the text of the others, never in an empty body.
      const text =
        !b.echo || kind === 'empty' || kind === 'json'
          ? original
          : kind === 'page' || kind === 'update-result' || kind === 'problem'
            ? JSON.stringify({ ...JSON.parse(original), echo: echoed })
            : `${original} ${echoed}`;
      const bytes = Buffer.from(text);
      const headers: Record<string, string> = { ...b.headers };
      if (b.contentType) headers['content-type'] = b.contentType;
      if (b.contentEncoding) headers['content-encoding'] = b.contentEncoding;
      if (b.retryAfter !== undefined) headers['retry-after'] = b.retryAfter;
      if (b.length === 'honest') headers['content-length'] = String(bytes.length);
      if (b.length === 'overstated') headers['content-length'] = String(bytes.length + 10);
      const location = {
        'same-path': '/v2/api/moved',
        'same-absolute': `${server.url}/v2/api/moved`,
        'other-origin': `${elsewhere.url}/v2/api/pix/keys/list-keys`,
        'refused-origin': 'http://127.0.0.1:1/v2/api/pix/keys/list-keys',
        'protocol-relative': `//localhost:${new URL(elsewhere.url).port}/v2/api/pix/keys/list-keys`,
        garbage: 'http://[::1',
      } as const;
      if (b.location) headers.location = location[b.location];
      res.writeHead(b.status, headers);
      if (b.ending === 'stall') return void res.write(bytes.subarray(0, bytes.length >> 1));
      if (b.ending === 'reset-mid-body') {
        res.write(bytes.subarray(0, bytes.length >> 1));
        return void setImmediate(() => res.socket?.destroy());
      }
      const size = Math.ceil(bytes.length / b.pieces) || 1;
      for (let offset = 0; offset < bytes.length; offset += size) {
        if (offset > 0) await sleep(b.pieceDelayMs);
        if (res.destroyed) return;
        res.write(bytes.subarray(offset, offset + size));
      }
      res.end();
    });
  });

  afterAll(async () => {
    unhandled.stop();
    await Promise.all([server.close(), elsewhere.close()]);
    console.log(
      `never-hangs: slowest call ${Math.round(slowest)} ms wall-clock (bound ${boundMs(TIMEOUT_MS)} ms, or ${boundMs(ANSWER_TIMEOUT_MS)} ms for answers at once, + ${SLACK_MS} ms slack, on-time)`,
    );
    expect(await tcpHandlesSettle(handlesBefore)).toBeLessThanOrEqual(handlesBefore);
  });

  describe('the client never hangs', () => {
    // The runs go one after the other, each bounded by settleWithin: the test's own limit is theirs summed.
    const testTimeoutMs = (numRuns + ONCE_HUNG.length) * (boundMs(ANSWER_TIMEOUT_MS) + SLACK_MS);
    test.prop([behaviour], { seed: 20261122, numRuns, examples: ONCE_HUNG })(
      'settles as data or a BaasError within the bound',
      async (b) => {
        current = b;
        // A reset before the headers also comes at once: under load the short timer could beat it and
        // turn the oracle's 'network' into 'timeout', so it gets the long timeout too.
        const timeoutMs = answersAtOnce(b) || b.ending === 'reset-before-headers' ? ANSWER_TIMEOUT_MS : TIMEOUT_MS;
        const client = createBaasClient({
          baseUrl: server.url,
          token: SECRET_TOKEN,
          timeoutMs,
          retry: { maxAttempts: ATTEMPTS, baseDelayMs: 1, maxDelayMs: MAX_DELAY_MS, maxElapsedMs: MAX_ELAPSED_MS },
        });
        const outcome = await settleWithin<unknown>(callBy(b.operation, client), boundMs(timeoutMs) + SLACK_MS);
        slowest = Math.max(slowest, outcome.ms);

        expect(outcome.kind, 'the call hung').not.toBe('hung');
        if (outcome.kind === 'error') {
          // raw: openapi-fetch's own parse of a body that is not JSON may throw its SyntaxError.
          if (!(b.operation === 'raw' && outcome.error instanceof SyntaxError))
            expect(outcome.error).toBeInstanceOf(BaasError);
          expect(leakedSecrets(outcome.error, [SECRET_TOKEN, VALID_CPF])).toEqual([]);
        } else if (outcome.kind === 'data' && b.operation !== 'raw' && OPERATIONS[b.operation].success === 'page') {
          expect(Array.isArray((outcome.value as { data?: unknown }).data)).toBe(true);
        }
        const expected = expectedKind(b);
        if (expected !== undefined) {
          const observed = outcome.kind === 'error' ? (outcome.error as BaasError).kind : outcome.kind;
          expect(observed).toBe(expected);
        }
        // The token never goes to another origin: the client does not follow a redirect there at all.
        expect(elsewhere.requests.map((r) => r.headers.authorization ?? 'no token')).toEqual([]);
        expect(unhandled.reasons).toEqual([]);
      },
      testTimeoutMs,
    );
  });
}
