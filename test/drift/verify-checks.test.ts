// Each check of a verify run against an in-process service (an injected fetch): the rows it reports
// and the requests it sends. The first walk pins a row's words once; the others assert the check, the
// verdict, the problems' part and pointer, and the facts `seen` carries (status, media type, counts).
import { describe, expect, it } from 'vitest';
import { loadDriftChecker } from '../../src/drift/index.js';
import { Budget } from '../../src/verify/budget.js';
import { MAX_EMPTY_PAGES } from '../../src/client/pagination.js';
import {
  assumptions,
  probeLimitOutOfRange,
  probeWithoutToken,
  sendUpdate,
  walkPages,
  type Context,
} from '../../src/verify/checks.js';
import { BaasTokenError } from '../../src/auth/token-error.js';
import { Secrets } from '../../src/redact.js';
import { staticToken, type CredentialSource } from '../../src/cli/connection/credentials.js';
import type { VerifyOptions } from '../../src/verify/options.js';
import type { CheckResult } from '../../src/verify/report.js';
import { checkedWrite } from '../../src/verify/write.js';
import { UsageError } from '../../src/usage-error.js';
import { exampleValue } from '../support/fixtures.js';
import { CHECK } from './check-names.js';
import {
  conformant,
  fakeService,
  problemReply,
  SERVICE_TOKEN,
  type Kind,
  type Reply,
  type SeenRequest,
} from './verify-service.js';

const BASE = 'http://127.0.0.1:9/gw/';
const LIST = 'http://127.0.0.1:9/gw/v2/api/pix/keys/list-keys';
const FIRST_CURSOR = exampleValue<{ cursor: { next: string } }>('FirstPage').cursor.next;
const UA = 'baas-pix-contract-verify/1.0.0';

async function context(
  reply?: (kind: Kind, request: SeenRequest, index: number) => Reply | undefined,
  options: Partial<VerifyOptions> = {},
  fetch?: (url: string, init: RequestInit) => Promise<Response>,
) {
  const service = fakeService(reply);
  const opts: VerifyOptions = {
    baseUrl: BASE,
    credentials: staticToken(SERVICE_TOKEN),
    pages: 3,
    limit: 2,
    maxRequests: 20,
    timeBudgetMs: 60_000,
    requestTimeoutMs: 5_000,
    maxResponseBytes: 10_485_760,
    ...options,
  };
  const budget = new Budget(opts.maxRequests, opts.timeBudgetMs, opts.requestTimeoutMs, {
    fetch: fetch ?? service.fetch,
    now: () => 0,
    wait: async () => undefined,
  });
  const ctx: Context = { options: opts, budget, checker: await loadDriftChecker(), seen: [] };
  return { ctx, requests: service.requests };
}

const { lastPage: LAST_PAGE, noToken: NO_TOKEN, badLimit: BAD_LIMIT, write: WRITE } = CHECK;
/** A row with no problems whose verdict is `error`, `seen` naming what stopped it. */
const errorRow = (check: string, seen: string | RegExp) => ({
  check,
  seen: typeof seen === 'string' ? expect.stringContaining(seen) : expect.stringMatching(seen),
  verdict: 'error',
  problems: [],
});
const statusProblem = (status: string) => ({ part: 'status', pointer: '', rule: expect.stringContaining(status) });
const DOCUMENTED = [200, 400, 401, 403, 422, 429, 500, 503].join(', ');
/** The last-page row's `seen`: how many pages were read, and why the walk stopped. */
function stopped(rows: CheckResult[]) {
  const [read, why] = rows.at(-1)!.seen.split('; the walk stopped: ');
  return { read, why };
}

const page = (next: string | null, data: unknown[] = []): Reply => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: { cursor: { next }, data },
});

describe('walkPages', () => {
  it('walks until cursor.next is null: one row a page with its key count, then the assumption held', async () => {
    const { ctx, requests } = await context();
    expect(await walkPages(ctx)).toEqual([
      {
        check: 'list-keys page 1',
        expected: '200 application/json PixKeyList',
        seen: '200 application/json, 2 keys',
        verdict: 'ok',
        problems: [],
      },
      {
        check: 'list-keys page 2',
        expected: '200 application/json PixKeyList',
        seen: '200 application/json, 1 keys',
        verdict: 'ok',
        problems: [],
      },
      {
        check: 'cursor.next null on the last page',
        expected: 'null once the list ends (x-assumption)',
        seen: 'null on the last page walked',
        verdict: 'held',
        problems: [],
      },
    ]);
    expect(requests.map((r) => [r.method, r.url.toString()])).toEqual([
      ['GET', `${LIST}?limit=2`],
      ['GET', `${LIST}?limit=2&cursor=${FIRST_CURSOR}`],
    ]);
    for (const r of requests) {
      expect(r.headers).toEqual({
        accept: 'application/json, application/problem+json',
        authorization: `Bearer ${SERVICE_TOKEN}`,
        'user-agent': UA,
      });
    }
    expect(ctx.seen.map((x) => x.status)).toEqual([200, 200]);
  });

  it('stops at --pages: the end of the list was not seen', async () => {
    const { ctx, requests } = await context(undefined, { pages: 1 });
    const rows = await walkPages(ctx);
    expect(rows.map((r) => [r.check, r.verdict])).toEqual([
      ['list-keys page 1', 'ok'],
      [LAST_PAGE, 'not-seen'],
    ]);
    expect(rows[1]!.seen).toContain('1 page(s)');
    expect(requests).toHaveLength(1);
  });

  it('flags a cursor that comes back (the page before, or any earlier page) as drift and stops', async () => {
    // Page 1 → A, page 2 → B, page 3 → A again.
    const cursors = ['A', 'B', 'A'];
    const { ctx, requests } = await context(
      (kind, _r, i) => (kind === 'page1' || kind === 'page2' ? page(cursors[i]!) : undefined),
      { pages: 5 },
    );
    const rows = await walkPages(ctx);
    expect(requests.map((r) => r.url.searchParams.get('cursor'))).toEqual([null, 'A', 'B']);
    expect(rows.slice(3)).toMatchObject([
      { check: 'cursor after page 3', verdict: 'drift', problems: [{ part: 'body', pointer: '/cursor/next' }] },
      // Three pages of five were read: the walk says why it stopped, not that the list went on.
      { check: LAST_PAGE, verdict: 'not-seen', problems: [] },
    ]);
    expect(stopped(rows)).toEqual({
      read: '3 page(s) read',
      why: expect.stringContaining('page 3: cursor.next must not repeat an earlier cursor'),
    });
  });

  it("stops after the page walker's bound of empty pages with fresh cursors, as an error row (not drift)", async () => {
    const { ctx, requests } = await context((kind, _r, i) => (kind.startsWith('page') ? page(`c${i}`) : undefined), {
      pages: 50,
    });
    const rows = await walkPages(ctx);
    expect(requests).toHaveLength(MAX_EMPTY_PAGES);
    expect(rows.at(-2)).toMatchObject({
      check: `cursor after page ${MAX_EMPTY_PAGES}`,
      verdict: 'error',
      problems: [],
    });
    expect(rows.at(-2)!.seen).toContain(`within ${MAX_EMPTY_PAGES} pages in a row`);
    expect(rows.at(-1)).toMatchObject({ check: LAST_PAGE, verdict: 'not-seen' });
  });

  it('flags a cursor longer than the contract allows as drift, without following it', async () => {
    const { ctx, requests } = await context((kind) => (kind === 'page1' ? page('a'.repeat(2_000_000)) : undefined), {
      pages: 5,
    });
    const rows = await walkPages(ctx);
    expect(requests).toHaveLength(1);
    expect(rows[0]).toMatchObject({ check: 'list-keys page 1', verdict: 'drift' });
    expect(JSON.stringify(rows)).not.toContain('aaaaaaaaaa');
  });

  it('flags a page that sends back the cursor it was asked with', async () => {
    const { ctx } = await context((kind) => (kind === 'page2' ? page(FIRST_CURSOR) : undefined), { pages: 5 });
    const rows = await walkPages(ctx);
    expect(rows.map((r) => [r.check, r.verdict])).toEqual([
      ['list-keys page 1', 'ok'],
      ['list-keys page 2', 'ok'],
      ['cursor after page 2', 'drift'],
      [LAST_PAGE, 'not-seen'],
    ]);
  });

  it('a page that breaks the contract is drift, named with its problem count, and the walk stops', async () => {
    const { ctx, requests } = await context((kind) =>
      kind === 'page1'
        ? { status: 200, headers: { 'content-type': 'application/json' }, body: { cursor: { next: 'A' } } }
        : undefined,
    );
    const rows = await walkPages(ctx);
    expect(rows[0]).toEqual({
      check: 'list-keys page 1',
      expected: '200 application/json PixKeyList',
      seen: '200 application/json, 1 problem(s)',
      verdict: 'drift',
      problems: [{ part: 'body', pointer: '/data', rule: 'is required' }],
    });
    expect(rows[1]!.verdict).toBe('not-seen');
    expect(requests).toHaveLength(1);
  });

  it('a page whose data is no list is counted as no keys', async () => {
    const { ctx } = await context((kind) =>
      kind === 'page1'
        ? {
            status: 200,
            headers: { 'content-type': 'application/json; charset=utf-8' },
            body: { cursor: { next: null }, data: {} },
          }
        : undefined,
    );
    const [first] = await walkPages(ctx);
    expect(first!.seen).toBe('200 application/json, 1 problem(s)');
    expect(first!.verdict).toBe('drift');
  });

  it.each([
    ['no cursor', { data: [] }, '/cursor', 'is required'],
    ['a cursor without next', { cursor: {}, data: [] }, '/cursor/next', 'is required'],
  ])(
    'a page with %s is drift naming it, not a crash and not the end of the list',
    async (_what, body, pointer, rule) => {
      const { ctx, requests } = await context((kind) =>
        kind === 'page1' ? { status: 200, headers: { 'content-type': 'application/json' }, body } : undefined,
      );
      const rows = await walkPages(ctx);
      expect(rows[0]).toMatchObject({
        verdict: 'drift',
        problems: [expect.objectContaining({ part: 'body', pointer, rule: expect.stringContaining(rule) })],
      });
      expect(rows[1]).toMatchObject({ check: LAST_PAGE, verdict: 'not-seen' });
      expect(requests).toHaveLength(1);
    },
  );

  it('an empty 200 without a content type is drift, not a crash', async () => {
    const { ctx } = await context((kind) => (kind === 'page1' ? { status: 200 } : undefined));
    const [first] = await walkPages(ctx);
    expect(first).toMatchObject({
      seen: expect.stringContaining('1 problem(s)'),
      verdict: 'drift',
      problems: [{ part: 'content-type' }],
    });
  });

  it.each([
    [500, problemReply(500, 'InternalError'), false],
    [429, problemReply(429, 'RateLimited', { 'retry-after': '30' }), true],
    [503, problemReply(503, 'UpstreamUnavailable', { 'retry-after': '30' }), true],
  ])('a documented refusal (%i) stops the walk as an error, not drift', async (status, reply, waitTooLong) => {
    const { ctx, requests } = await context((kind) => (kind === 'page1' ? reply : undefined), { timeBudgetMs: 10_000 });
    const rows = await walkPages(ctx);
    expect(rows[0]).toMatchObject(errorRow('list-keys page 1', new RegExp(`^${status} .*documented refusal`)));
    // The Retry-After that the budget cannot wait out is named.
    expect(rows[0]!.seen.includes('Retry-After'), rows[0]!.seen).toBe(waitTooLong);
    expect(rows).toHaveLength(2);
    expect(requests).toHaveLength(1);
  });

  it.each([401, 403])(
    '%i to the first page: the credentials were refused, one error row, no page blamed, nothing more sent',
    async (status) => {
      const { ctx, requests } = await context((kind) =>
        kind === 'page1' ? problemReply(status, status === 401 ? 'MissingToken' : 'AccountNotAllowed') : undefined,
      );
      const rows = await walkPages(ctx);
      expect(rows).toMatchObject([
        errorRow('credentials', `(${status})`),
        {
          check: LAST_PAGE,
          seen: expect.stringMatching(new RegExp(`^0 page\\(s\\) read.*credentials \\(${status}\\)$`)),
          verdict: 'not-seen',
          problems: [],
        },
      ]);
      expect(ctx.refused).toEqual({ by: 'service', status });
      expect(requests).toHaveLength(1);
      // Seen for the assumptions (its X-Request-Id counts), never scored.
      expect(ctx.seen.map((x) => x.status)).toEqual([status]);
    },
  );

  it('a 401 to a later page (a token that expired) is a documented refusal of that page, not refused credentials', async () => {
    const { ctx } = await context((kind) => (kind === 'page2' ? problemReply(401, 'MissingToken') : undefined));
    const rows = await walkPages(ctx);
    expect(rows).toMatchObject([
      { check: 'list-keys page 1', seen: expect.stringContaining('2 keys'), verdict: 'ok' },
      errorRow('list-keys page 2', /^401 .*documented refusal/),
      { check: LAST_PAGE, verdict: 'not-seen' },
    ]);
    expect(stopped(rows)).toEqual({ read: '1 page(s) read', why: 'page 2 answered 401' });
    expect(ctx.refused).toBeUndefined();
  });

  it('client credentials the token endpoint refuses: refused credentials; a token endpoint out of reach is no refusal', async () => {
    const tokenError = (failure: 'rejected' | 'network') =>
      new BaasTokenError({
        failure,
        tokenUrl: 'https://auth.example/token',
        ...(failure === 'rejected' ? { status: 401, error: 'invalid_client' } : {}),
        detail: 'x',
        secrets: Secrets.none,
      });
    const refusing = (failure: 'rejected' | 'network'): CredentialSource => ({
      kind: 'client credentials',
      token: () => Promise.reject(tokenError(failure)),
      authorization: () => Promise.reject(tokenError(failure)),
      secretsOf: () => Secrets.none,
      close: async () => undefined,
    });
    let { ctx, requests } = await context(undefined, { credentials: refusing('rejected') });
    expect((await walkPages(ctx))[0]).toMatchObject({
      ...errorRow('credentials', '(401 invalid_client)'),
      expected: expect.stringContaining('client credentials'),
    });
    expect(ctx.refused).toEqual({ by: 'token endpoint', status: 401, code: 'invalid_client', failure: 'rejected' });
    expect(requests).toEqual([]);
    // An `error` that is no plain RFC 6749 code (words, controls, a token) never reaches the summary.
    const wordy: CredentialSource = {
      ...refusing('rejected'),
      authorization: () =>
        Promise.reject(
          new BaasTokenError({
            failure: 'rejected',
            tokenUrl: 'https://auth.example/token',
            status: 400,
            error: 'call 555-0100 \x1b[2J',
            detail: 'x',
            secrets: Secrets.none,
          }),
        ),
    };
    ({ ctx } = await context(undefined, { credentials: wordy }));
    expect((await walkPages(ctx))[0]!.seen).toMatch(/endpoint \(400\)$/);
    expect(ctx.refused).toEqual({ by: 'token endpoint', status: 400, failure: 'rejected' });
    ({ ctx } = await context(undefined, { credentials: refusing('network') }));
    expect((await walkPages(ctx))[0]).toMatchObject({ check: 'list-keys page 1', verdict: 'error' });
    // No token, so the checks that need one are not run; but nothing was refused (run.ts: INCOMPLETE).
    expect(ctx.refused).toEqual({ by: 'token endpoint', status: undefined, failure: 'network' });
  });

  it('an undocumented status is drift and stops the walk', async () => {
    const { ctx } = await context((kind) =>
      kind === 'page1' ? { status: 404, headers: { 'content-type': 'text/plain' }, body: 'nope' } : undefined,
    );
    const rows = await walkPages(ctx);
    expect(rows[0]).toMatchObject({
      check: 'list-keys page 1',
      seen: '404 text/plain, 1 problem(s)',
      verdict: 'drift',
      problems: [statusProblem(DOCUMENTED)],
    });
    expect(rows).toHaveLength(2);
  });

  it('a budget used up mid-walk ends it with an error row naming the budget', async () => {
    const { ctx } = await context(undefined, { maxRequests: 1 });
    const rows = await walkPages(ctx);
    expect(rows).toMatchObject([
      { check: 'list-keys page 1', verdict: 'ok' },
      errorRow('list-keys page 2', 'budget of 1 used'),
      { check: LAST_PAGE, verdict: 'not-seen' },
    ]);
    expect(stopped(rows)).toEqual({ read: '1 page(s) read', why: expect.stringMatching(/^page 2:.*of 1 used/) });
  });

  // Shaped as Node's fetch throws them: "fetch failed", the system error (with its code) as the cause.
  const systemError = (message: string, code: string) => Object.assign(new Error(message), { code });
  const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause });
  it.each([
    [
      'a system error code from the cause: the cause chain as it is',
      fetchFailed(systemError('read ECONNRESET', 'ECONNRESET')),
      'no answer (fetch failed: read ECONNRESET)',
    ],
    [
      'nothing listening: where to look',
      fetchFailed(systemError('connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED')),
      'no answer (ECONNREFUSED: nothing listens there; is the service running, and is --base-url right?)',
    ],
    [
      'no such host: where to look',
      fetchFailed(systemError('getaddrinfo ENOTFOUND nowhere.invalid', 'ENOTFOUND')),
      'no answer (ENOTFOUND: no such host; check --base-url)',
    ],
    [
      'a code deeper in the chain, as the transport reads it',
      fetchFailed(new Error('connect failed', { cause: systemError('connect ECONNREFUSED', 'ECONNREFUSED') })),
      'no answer (ECONNREFUSED: nothing listens',
    ],
    [
      'a code on the error itself (a TLS fetch puts it there)',
      systemError('getaddrinfo ENOTFOUND nowhere.invalid', 'ENOTFOUND'),
      'no answer (ENOTFOUND: no such host',
    ],
    ['no cause', new Error('socket hang up'), 'no answer (socket hang up)'],
    [
      'a code that is no string: not taken for one',
      fetchFailed(Object.assign(new Error('odd'), { code: 7 })),
      'no answer (fetch failed: odd)',
    ],
    [
      'a code without words of its own, in its message',
      fetchFailed(systemError('socket closed', 'UND_ERR_SOCKET')),
      'no answer (fetch failed: socket closed (UND_ERR_SOCKET))',
    ],
  ])('no answer at all (%s): an error row', async (_name, error, seen) => {
    const { ctx } = await context(undefined, {}, async () => {
      throw error;
    });
    const [first] = await walkPages(ctx);
    expect(first).toMatchObject({ ...errorRow('list-keys page 1', seen), expected: '200 application/json PixKeyList' });
  });

  // An answer that never comes: the attempt's timer ends it, whatever the machine's speed.
  const hanging = async (_url: string, init: RequestInit) =>
    new Promise<Response>((_resolve, reject) => {
      init.signal!.addEventListener('abort', () => reject(init.signal!.reason));
    });
  it.each([
    ['--timeout-ms', { requestTimeoutMs: 40 }, 'no answer within 40 ms (--timeout-ms)'],
    ['what --time-budget-ms had left', { timeBudgetMs: 40 }, 'no answer within 40 ms (--time-budget-ms)'],
  ])('no answer in time (%s): an error row naming the limit and the option', async (_name, options, seen) => {
    const { ctx } = await context(undefined, options, hanging);
    const [first] = await walkPages(ctx);
    expect(first).toMatchObject(errorRow('list-keys page 1', seen));
    expect(first!.seen).toBe(seen);
  });
});

describe('the error probes', () => {
  it('without a token: sends no Authorization; a 401 with problem details is ok', async () => {
    const { ctx, requests } = await context();
    expect(await probeWithoutToken(ctx)).toEqual({
      check: NO_TOKEN,
      expected: '401 application/problem+json',
      seen: '401 application/problem+json',
      verdict: 'ok',
      problems: [],
    });
    expect(requests[0]!.method).toBe('GET');
    expect(requests[0]!.url.toString()).toBe(LIST);
    expect(requests[0]!.headers).toEqual({ accept: 'application/json, application/problem+json', 'user-agent': UA });
    expect(ctx.seen).toHaveLength(1);
  });

  it('without a token: a 200 is drift, the status named first', async () => {
    const { ctx } = await context((kind) => (kind === 'no-token' ? conformant('page1') : undefined));
    expect(await probeWithoutToken(ctx)).toMatchObject({
      check: NO_TOKEN,
      seen: '200 application/json, 1 problem(s)',
      verdict: 'drift',
      problems: [statusProblem('401')],
    });
  });

  it('without a token: a documented 403 is drift too; an undocumented status is named once', async () => {
    let { ctx } = await context((kind) => (kind === 'no-token' ? problemReply(403, 'AccountNotAllowed') : undefined));
    expect((await probeWithoutToken(ctx)).problems).toEqual([statusProblem('401')]);
    ({ ctx } = await context((kind) =>
      kind === 'no-token' ? { status: 404, headers: { 'content-type': 'text/plain' }, body: 'x' } : undefined,
    ));
    expect((await probeWithoutToken(ctx)).problems).toEqual([statusProblem(DOCUMENTED)]);
  });

  it('without a token: a 403 as plain JSON is drift twice, the status first', async () => {
    const { ctx } = await context((kind) =>
      kind === 'no-token'
        ? { status: 403, headers: { 'content-type': 'application/json' }, body: exampleValue('AccountNotAllowed') }
        : undefined,
    );
    expect((await probeWithoutToken(ctx)).problems).toEqual([
      statusProblem('401'),
      { part: 'content-type', pointer: '', rule: expect.stringContaining('application/problem+json') },
    ]);
  });

  it('without a token: a 401 with the wrong media type keeps its own problem only', async () => {
    const { ctx } = await context((kind) =>
      kind === 'no-token'
        ? {
            status: 401,
            headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer' },
            body: exampleValue('MissingToken'),
          }
        : undefined,
    );
    expect(await probeWithoutToken(ctx)).toMatchObject({
      seen: '401 application/json, 1 problem(s)',
      verdict: 'drift',
      problems: [{ part: 'content-type', pointer: '', rule: 'must be application/problem+json' }],
    });
  });

  it('without a token: no answer is an error row', async () => {
    const { ctx } = await context(undefined, { maxRequests: 0 });
    expect(await probeWithoutToken(ctx)).toMatchObject(errorRow(NO_TOKEN, 'budget of 0 used'));
  });

  it('limit=201: sent with the token; 422 and 400 with problem details are ok', async () => {
    let { ctx, requests } = await context();
    expect(await probeLimitOutOfRange(ctx)).toMatchObject({
      check: BAD_LIMIT,
      seen: '422 application/problem+json',
      verdict: 'ok',
      problems: [],
    });
    expect(requests[0]!.method).toBe('GET');
    expect(requests[0]!.url.toString()).toBe(`${LIST}?limit=201`);
    expect(requests[0]!.headers.authorization).toBe(`Bearer ${SERVICE_TOKEN}`);
    ({ ctx } = await context((kind) => (kind === 'bad-limit' ? problemReply(400, 'MalformedJson') : undefined)));
    expect(await probeLimitOutOfRange(ctx)).toMatchObject({
      seen: '400 application/problem+json',
      verdict: 'ok',
      problems: [],
    });
  });

  it('limit=201: a 200 is drift naming the rule; an undocumented status is named once', async () => {
    let { ctx } = await context((kind) => (kind === 'bad-limit' ? conformant('page1') : undefined));
    expect(await probeLimitOutOfRange(ctx)).toMatchObject({
      check: BAD_LIMIT,
      seen: '200 application/json, 1 problem(s)',
      verdict: 'drift',
      problems: [statusProblem('422 or 400')],
    });
    ({ ctx } = await context((kind) =>
      kind === 'bad-limit' ? { status: 404, headers: { 'content-type': 'text/plain' }, body: 'x' } : undefined,
    ));
    expect((await probeLimitOutOfRange(ctx)).problems).toHaveLength(1);
  });

  it('limit=201: a 200 page off the contract is drift twice, the status first', async () => {
    const { ctx } = await context((kind) =>
      kind === 'bad-limit'
        ? { status: 200, headers: { 'content-type': 'application/json' }, body: { cursor: { next: null } } }
        : undefined,
    );
    expect((await probeLimitOutOfRange(ctx)).problems).toEqual([
      statusProblem('422 or 400'),
      { part: 'body', pointer: '/data', rule: 'is required' },
    ]);
  });

  it('limit=201 and the write, after the credentials were refused: not run, nothing sent, no drift', async () => {
    const { ctx, requests } = await context(undefined, {
      write: { account: '300541976902', documentNumber: '52998224725', bodyFile: 'unused.json' },
    });
    ctx.refused = { by: 'service', status: 401 };
    expect(await probeLimitOutOfRange(ctx)).toMatchObject(
      errorRow(BAD_LIMIT, /^not run: credentials refused \(401\)$/),
    );
    expect(await sendUpdate(ctx, checkedWrite(ctx.options.write!, '{"email":"maria@example.com"}'))).toMatchObject({
      check: WRITE,
      verdict: 'error',
      problems: [],
    });
    expect(requests).toEqual([]);
    // The probe without a token needs no accepted token: it still runs.
    expect(await probeWithoutToken(ctx)).toMatchObject({ verdict: 'ok' });
    expect(requests).toHaveLength(1);
  });

  it('limit=201: no answer is an error row', async () => {
    const { ctx } = await context(undefined, {}, async () => {
      throw new Error('reset');
    });
    expect(await probeLimitOutOfRange(ctx)).toMatchObject(errorRow(BAD_LIMIT, 'no answer (reset)'));
  });
});

describe('sendUpdate', () => {
  const write = { account: '300541976902', documentNumber: '52998224725', bodyFile: 'unused.json' };

  it('sends one PUT with account and CPF in the query, the body as given, JSON and the token', async () => {
    const { ctx, requests } = await context(undefined, { write });
    expect(await sendUpdate(ctx, checkedWrite(write, '{"email":"maria@example.com"}'))).toEqual({
      check: WRITE,
      expected: '200 application/json UpdateResult',
      seen: '200 application/json',
      verdict: 'ok',
      problems: [],
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.method).toBe('PUT');
    expect(requests[0]!.url.toString()).toBe(
      'http://127.0.0.1:9/gw/v2/api/baas-onboarding/account/natural-person?Account=300541976902&DocumentNumber=52998224725',
    );
    expect(requests[0]!.body).toBe('{"email":"maria@example.com"}');
    expect(requests[0]!.headers).toEqual({
      accept: 'application/json, application/problem+json',
      authorization: `Bearer ${SERVICE_TOKEN}`,
      'content-type': 'application/json',
      'user-agent': UA,
    });
    expect(ctx.seen).toHaveLength(1);
  });

  it('an answer off the contract is drift; no answer is an error row', async () => {
    let { ctx } = await context(
      (kind) =>
        kind === 'update'
          ? { status: 200, headers: { 'content-type': 'application/json' }, body: { status: 'DONE' } }
          : undefined,
      { write },
    );
    expect(await sendUpdate(ctx, checkedWrite(write, '{"email":"maria@example.com"}'))).toMatchObject({
      verdict: 'drift',
      seen: expect.stringMatching(/^200 application.json, [1-9] problem/),
    });
    ({ ctx } = await context(undefined, { write, maxRequests: 0 }));
    expect(await sendUpdate(ctx, checkedWrite(write, '{"email":"maria@example.com"}'))).toMatchObject(
      errorRow(WRITE, 'budget of 0 used'),
    );
  });

  it.each([
    [422, 'Unprocessable', 'email is not accepted by the service'],
    [404, 'Not Found', 'no customer with that account'],
    [400, 'Bad Request', 'the service read the body otherwise'],
    [500, 'Server Error', 'try again later'],
  ])(
    'a refused write (%i) is never OK: an error row with its status and problem, and the run knows it',
    async (status, title, detail) => {
      const { ctx } = await context(
        (kind) =>
          kind === 'update'
            ? {
                status,
                headers: { 'content-type': 'application/problem+json' },
                body: { type: 'about:blank', title, status, detail },
              }
            : undefined,
        { write },
      );
      const result = await sendUpdate(ctx, checkedWrite(write, '{"email":"maria@example.com"}'));
      expect(result.verdict).not.toBe('ok');
      expect(result).toMatchObject({
        check: WRITE,
        verdict: 'error',
        seen: `${status} application/problem+json: refused (${title}: ${detail}), the write could not be verified`,
      });
      expect(ctx.writeRefused).toEqual({ status, problem: `${title}: ${detail}` });
    },
  );

  it("a refusal in the upstream's envelope is read too, bounded, and a CPF in it is masked at the output", async () => {
    const { ctx } = await context(
      (kind) =>
        kind === 'update'
          ? {
              status: 422,
              headers: { 'content-type': 'application/json' },
              body: { status: 'ERROR', error: { code: 'CBE057', message: `CPF 52998224725 ${'x'.repeat(500)}` } },
            }
          : undefined,
      { write },
    );
    const result = await sendUpdate(ctx, checkedWrite(write, '{"email":"maria@example.com"}'));
    expect(result.verdict).not.toBe('ok');
    expect(result.seen).not.toContain('52998224725');
    expect(result.seen).toMatch(/refused \(CBE057: CPF \S+ x+… \(\d+ more characters\)\)/);
    expect(result.seen.length).toBeLessThan(400);
  });
});

describe('checkedWrite: the client’s pre-flight rule for the write', () => {
  const write = { account: '300541976902', documentNumber: '52998224725', bodyFile: 'unused.json' };

  it.each([
    [
      'a CPF whose check digits are wrong',
      { documentNumber: '52998224724' },
      '{"email":"maria@example.com"}',
      /--document-number: DocumentNumber/,
    ],
    [
      'an account that is not digits',
      { account: '30054-1976902x' },
      '{"email":"maria@example.com"}',
      /--account: Account/,
    ],
    // The field once: `--body at /email: must be …`, not `--body at /email: /email must be …`.
    ['a body field the contract does not know', {}, '{"mail":"maria@example.com"}', /--body at \/mail: is not a field/],
    ['a body field of the wrong type', {}, '{"email":5}', /--body at \/email: must be a string/],
    ['a body that is not an object', {}, '[]', /--body: the body /],
    ['an empty body', {}, '{}', /--body: the body must hold at least 1 field/],
    ['a body that is not JSON', {}, '{email:', /--body is not valid JSON/],
  ])('refuses %s before anything is sent, naming the flag and the rule', (_what, change, body, message) => {
    const given = { ...write, ...change };
    let thrown: unknown;
    try {
      checkedWrite(given, body);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as Error).message).toMatch(message);
    // Never the value itself.
    expect((thrown as Error).message).not.toContain(given.documentNumber);
  });

  it('gives the query and the body as the client would send them', () => {
    expect(checkedWrite(write, '{ "email": "maria@example.com" }\n')).toEqual({
      query: { Account: '300541976902', DocumentNumber: '52998224725' },
      body: { email: 'maria@example.com' },
    });
  });
});

describe('assumptions', () => {
  const x = (headers: Record<string, string>) => ({
    status: 200,
    headers: new Headers(headers),
    contentType: null,
    body: undefined,
    bodyUnparsable: false,
    waitedOn: [],
  });
  const rowsFor = async (seen: ReturnType<typeof x>[]) => {
    const { ctx } = await context();
    ctx.seen.push(...seen);
    return assumptions(ctx);
  };

  it('X-Request-Id on every response held; no rate-limit header not seen', async () => {
    expect(await rowsFor([x({ 'x-request-id': 'a' }), x({ 'x-request-id': 'b' })])).toMatchObject([
      { check: 'X-Request-Id on responses', seen: expect.stringContaining('2 of 2'), verdict: 'held', problems: [] },
      {
        check: 'rate-limit headers',
        expected: expect.stringContaining('RateLimit-* or X-RateLimit-*'),
        seen: expect.stringContaining('0 of 2'),
        verdict: 'not-seen',
        problems: [],
      },
    ]);
  });

  it('X-Request-Id on some responses only, or no response at all: not seen', async () => {
    expect((await rowsFor([x({ 'x-request-id': 'a' }), x({})]))[0]).toMatchObject({
      seen: expect.stringContaining('1 of 2'),
      verdict: 'not-seen',
    });
    expect((await rowsFor([]))[0]).toMatchObject({ seen: expect.stringContaining('0 of 0'), verdict: 'not-seen' });
  });

  it.each([
    'ratelimit',
    'ratelimit-limit',
    'ratelimit-remaining',
    'ratelimit-reset',
    'ratelimit-policy',
    'x-ratelimit-limit',
    'x-ratelimit-remaining',
    'x-ratelimit-reset',
  ])('rate-limit headers held when one response carries %s', async (name) => {
    expect((await rowsFor([x({}), x({ [name]: '10' })]))[1]).toMatchObject({
      seen: expect.stringContaining('1 of 2'),
      verdict: 'held',
    });
  });
});
