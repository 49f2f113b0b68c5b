// The sandbox's answers, in process: each problem's type, title, status, headers and the fields it
// names, the options checked at creation, Prefer, injected faults, the rate limit and the request rules.
// The words of each message are pinned once: the options' format in the first test, the problems'
// details in 'the words of the sandbox' at the end; elsewhere a detail is asserted by what it names.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandbox, SANDBOX_LIMITS } from '../../src/sandbox/index.js';
import { countProblem, totalProblem } from '../../src/sandbox/limits.js';
import { refusalOf } from '../support/refusal.js';
import { redactText } from '../../src/redact.js';
import { spec } from '../support/spec.js';

/** The key types the contract names (KnownPixKeyType), in the spec's order: an account of 5 keys has one of each. */
const KEY_TYPES = spec.components.schemas!.KnownPixKeyType!.enum as string[];
import { answerOf, LIST, list, problemBody, update, UPDATE } from './in-process.js';

const example = (name: string) => spec.components.examples![name]!.value as Record<string, unknown>;
/** A documented problem example as the sandbox serves it: its own request id in place of the example's. */
const served = (name: string) => ({ ...example(name), instance: '/problems/occurrences/ID', correlationId: 'ID' });

/** A problem the sandbox writes: type, title and status as the contract has them; the detail's words are pinned once, below. */
const problemOf = (status: number, slug: string, title: string, violations?: { property: string; reason: string }[]) =>
  problemBody(status, slug, title, expect.any(String) as unknown as string, violations);
/** A violation naming its field, its reason naming the field and then the rule broken. */
const broke = (property: string, rule: string) => ({
  property,
  reason: expect.stringMatching(new RegExp(`${property}.*${rule}`)) as unknown as string,
});
/** The message of what `run` throws, checked to be a RangeError. */
const refusal = (run: () => unknown): string => refusalOf(run, RangeError);

afterEach(() => {
  vi.useRealTimers();
});

describe('createSandbox options', () => {
  it('defaults to 1 client, 2 accounts and 5 keys (one of each type) from the seed "baas-pix-contract"', () => {
    const sandbox = createSandbox();
    const snapshot = sandbox.snapshot();
    expect(sandbox.clients).toHaveLength(1);
    expect(sandbox.clients[0]!.accounts).toHaveLength(2);
    expect(snapshot.clients[0]!.accounts.map((account) => account.keys.map((key) => key.key_type))).toEqual([
      KEY_TYPES,
      KEY_TYPES,
    ]);
    expect(createSandbox({ seed: 'baas-pix-contract' }).snapshot()).toEqual(snapshot);
    expect(createSandbox({ seed: 'other' }).snapshot()).not.toEqual(snapshot);
  });

  it('refuses counts that are not integers from their minimum to their limit, naming the option, the range and the bound broken, never the value', () => {
    // The message's format, pinned once here.
    expect(() => createSandbox({ clients: 0 })).toThrow(
      new RangeError('createSandbox: clients must be an integer from 1 to 1,000, got one below 1'),
    );
    expect(refusal(() => createSandbox({ accountsPerClient: 1.5 }))).toMatch(
      /^createSandbox: accountsPerClient .*100,000, got a fraction$/,
    );
    expect(refusal(() => createSandbox({ keysPerAccount: -1 }))).toMatch(
      /keysPerAccount .*from 0 to 100,000, got one below 0$/,
    );
    // A value of another type is named by its type.
    expect(refusal(() => createSandbox({ keysPerAccount: '5' as unknown as number }))).toMatch(
      /keysPerAccount .*got a string$/,
    );
    expect(refusal(() => createSandbox({ clients: Number.NaN }))).toMatch(/clients .*got a number that is not finite$/);
    expect(refusal(() => createSandbox({ clients: null as unknown as number }))).toMatch(/clients .*got a null$/);
    // Never the value (an options error shows none): an 11-digit one was echoed, and masked where shown.
    expect(refusal(() => createSandbox({ keysPerAccount: 10_000_000_000 }))).toBe(
      'createSandbox: keysPerAccount must be an integer from 0 to 100,000, got one above 100,000',
    );
    expect(
      createSandbox({ clients: 1, accountsPerClient: 1, keysPerAccount: 0 }).snapshot().clients[0]!.accounts[0]!.keys,
    ).toEqual([]);
  });

  // The command line's --accounts and --keys are accountsPerClient and keysPerAccount here: a JavaScript
  // caller who writes the flag's name would get the default sandbox without a word.
  it('refuses an unknown option, naming the one meant', () => {
    const unknown = (options: object) =>
      refusalOf(() => createSandbox(options as Parameters<typeof createSandbox>[0]), TypeError);
    expect(unknown({ accounts: 50 })).toMatch(
      /^createSandbox: accounts is not an option; did you mean accountsPerClient\?$/,
    );
    expect(unknown({ keys: 5 })).toContain('did you mean keysPerAccount?');
    expect(unknown({ ratelimit: {} })).toContain('did you mean rateLimit?');
  });

  it('refuses a sandbox over its total accounts or keys, naming the options and the limit, before building anything', () => {
    const fail = (options: Parameters<typeof createSandbox>[0]) => {
      try {
        createSandbox(options);
      } catch (error) {
        return error as RangeError;
      }
      throw new Error('accepted');
    };
    const accounts = fail({ clients: 1000, accountsPerClient: 101, keysPerAccount: 0 });
    expect(accounts).toBeInstanceOf(RangeError);
    const product = 'clients × accountsPerClient';
    expect(accounts.message).toContain(product);
    expect(accounts.message).toMatch(/must be at most 100,000: the counts given make more$/);
    expect(accounts.message).not.toContain('101');
    const keys = fail({ clients: 5, accountsPerClient: 2, keysPerAccount: 25_001 });
    expect(keys.message).toContain(`${product} × keysPerAccount`);
    expect(keys.message).toMatch(/must be at most 250,000: the counts given make more$/);
    expect(keys.message).not.toContain('250,010');
    expect(fail({ clients: 1, accountsPerClient: 1, keysPerAccount: 100_001 }).message).toMatch(
      /keysPerAccount .*100,000, got one above 100,000$/,
    );
    expect(fail({ clients: 1001 }).message).toMatch(/clients .*1,000, got one above 1,000$/);
    expect(fail({ accountsPerClient: 100_001 }).message).toMatch(/accountsPerClient .*100,000, got one above 100,000$/);
    // 10^11 keys (issue 19): refused at once, with nothing allocated for it. Last, so that a sandbox
    // without its limits fails on the small cases above instead of trying to build this one.
    const heap = process.memoryUsage().heapUsed;
    expect(fail({ clients: 1000, accountsPerClient: 1000, keysPerAccount: 100_000 })).toBeInstanceOf(RangeError);
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(50 * 1024 * 1024);
  });

  it('allows every size up to the limits themselves (the checker createSandbox and the command line share)', () => {
    expect(SANDBOX_LIMITS).toEqual({
      clients: 1000,
      accountsPerClient: 100_000,
      keysPerAccount: 100_000,
      accounts: 100_000,
      keys: 250_000,
    });
    const name = (option: string) => option;
    for (const option of ['clients', 'accountsPerClient', 'keysPerAccount'] as const) {
      expect(countProblem(option, SANDBOX_LIMITS[option], option)).toBeUndefined();
      expect(countProblem(option, SANDBOX_LIMITS[option] + 1, option)).toContain(option);
    }
    expect(totalProblem({ clients: 100, accountsPerClient: 100, keysPerAccount: 25 }, name)).toBeUndefined();
    expect(totalProblem({ clients: 1, accountsPerClient: 5, keysPerAccount: 50_000 }, name)).toBeUndefined();
    expect(totalProblem({ clients: 1000, accountsPerClient: 10, keysPerAccount: 25 }, name)).toBeUndefined();
    expect(totalProblem({ clients: 1000, accountsPerClient: 10, keysPerAccount: 26 }, name)).toContain('250,000');
    expect(totalProblem({ clients: 1, accountsPerClient: 100_000, keysPerAccount: 2 }, name)).toBeUndefined();
    expect(totalProblem({ clients: 10, accountsPerClient: 10_001, keysPerAccount: 0 }, name)).toContain('100,000');
  });

  it('serves an empty list when accounts have no keys', async () => {
    const sandbox = createSandbox({ seed: 'empty', keysPerAccount: 0 });
    const answer = await answerOf(await list(sandbox));
    expect([answer.status, answer.headers, answer.text]).toEqual([
      200,
      { 'content-type': 'application/json', 'x-request-id': 'ID' },
      '{"cursor":{"next":null},"data":[]}',
    ]);
  });

  it('refuses a rate limit that is not a positive integer per positive window', () => {
    for (const requests of [0, 1.5])
      expect(refusal(() => createSandbox({ rateLimit: { requests } }))).toMatch(
        /rateLimit\.requests .*positive integer$/,
      );
    for (const windowMs of [0, -1, Number.NaN]) {
      expect(refusal(() => createSandbox({ rateLimit: { requests: 1, windowMs } }))).toMatch(
        /rateLimit\.windowMs .*positive$/,
      );
    }
    expect(() => createSandbox({ rateLimit: { requests: 1, windowMs: 0.5 } })).not.toThrow();
  });
});

describe('problems the sandbox writes', () => {
  const sandbox = createSandbox({ seed: 'answers', clients: 2, keysPerAccount: 4 });

  it('404 for a path outside the contract, 405 with Allow for the wrong method', async () => {
    const unknown = await answerOf(
      await sandbox.fetch('http://s/v2/api/pix/keys', {
        headers: { authorization: `Bearer ${sandbox.clients[0]!.token}` },
      }),
    );
    expect([unknown.status, unknown.headers['content-type'], unknown.body]).toEqual([
      404,
      'application/problem+json',
      problemOf(404, 'not-found', 'Not found'),
    ]);
    const post = await answerOf(await sandbox.fetch(LIST, { method: 'POST' }));
    expect([post.status, post.headers.allow, post.body]).toEqual([
      405,
      'GET',
      problemOf(405, 'method-not-allowed', 'Method not allowed'),
    ]);
  });

  it('401 with WWW-Authenticate: Bearer without a token or with a malformed one, and RFC 6750 error="invalid_token" with an unknown one', async () => {
    const missing = problemBody(
      401,
      'unauthorized',
      'Unauthorized',
      'A bearer token is required: send the Authorization header as Bearer <token>.',
    );
    const unknown = problemBody(401, 'unauthorized', 'Unauthorized', 'The bearer token is not known to this sandbox.');
    const token = sandbox.clients[0]!.token;
    const invalidToken =
      'Bearer error="invalid_token", error_description="The bearer token is not known to this sandbox."';
    const cases: [string | undefined, object, string][] = [
      [undefined, missing, 'Bearer'],
      ['Bearer', missing, 'Bearer'],
      [`Basic ${token}`, missing, 'Bearer'],
      [`xBearer ${token}`, missing, 'Bearer'],
      [`Bearer ${token} extra`, missing, 'Bearer'],
      [`Bearer ${token}!`, missing, 'Bearer'],
      ['Bearer sbx_unknown', unknown, invalidToken],
      ['Bearer sbx_unknown==', unknown, invalidToken],
    ];
    for (const [authorization, body, challenge] of cases) {
      const answer = await answerOf(
        await sandbox.fetch(`${LIST}?limit=1`, {
          headers: { 'user-agent': 't/1', ...(authorization === undefined ? {} : { authorization }) },
        }),
      );
      expect([authorization, answer.status, answer.headers['www-authenticate'], answer.body]).toEqual([
        authorization,
        401,
        challenge,
        body,
      ]);
    }
    for (const authorization of [`bearer ${token}`, `BEARER   ${token}  `, `Bearer ${token}`]) {
      expect((await sandbox.fetch(`${LIST}?limit=1`, { headers: { 'user-agent': 't/1', authorization } })).status).toBe(
        200,
      );
    }
  });

  it('422 names each broken field: one field, several fields, the whole body', async () => {
    const one = await answerOf(await list(sandbox, '?limit=0'));
    expect([one.status, one.body]).toEqual([
      422,
      problemOf(422, 'validation', 'Invalid request', [broke('limit', 'at least 1')]),
    ]);
    expect(one.body.detail).toMatch(/^1 field /);
    const two = await answerOf(await list(sandbox, '?limit=abc', { 'user-agent': '' }));
    expect(two.body).toEqual(
      problemOf(422, 'validation', 'Invalid request', [broke('limit', 'an integer'), broke('User-Agent', 'required')]),
    );
    expect(two.body.detail).toMatch(/^2 fields /);
    const whole = await answerOf(await update(sandbox, []));
    expect(whole.body).toEqual(problemOf(422, 'validation', 'Invalid request', [broke('body', 'an object')]));
  });

  it('422 for a query parameter sent more than once, naming it, whatever its values; each parameter the spec declares', async () => {
    const once = (name: string) => broke(name, 'sent once');
    const twice = await answerOf(await list(sandbox, '?limit=2&limit=3'));
    expect([twice.status, twice.body]).toEqual([422, problemOf(422, 'validation', 'Invalid request', [once('limit')])]);
    expect((await answerOf(await list(sandbox, '?limit=2&limit=2'))).body.violations).toEqual([once('limit')]);
    // With the value's own rule broken too, both are named; with the cursor repeated as well, each once.
    expect((await answerOf(await list(sandbox, '?limit=0&limit=3'))).body.violations).toEqual([
      once('limit'),
      broke('limit', 'at least 1'),
    ]);
    const next = (await answerOf(await list(sandbox, '?limit=1'))).body.cursor.next as string;
    expect(
      (await answerOf(await list(sandbox, `?cursor=${next}&limit=1&cursor=${next}&limit=1&limit=1`))).body.violations,
    ).toEqual([once('limit'), once('cursor')]);
    const target = sandbox.clients[0]!.accounts[0]!;
    const put = (query: string) =>
      sandbox.fetch(
        new Request(`${UPDATE}?${query}`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${sandbox.clients[0]!.token}`, 'content-type': 'application/json' },
          body: '{"email":"a@b.com"}',
        }),
      );
    const both = `Account=${target.account}&DocumentNumber=${target.documentNumber}`;
    expect((await answerOf(await put(`${both}&Account=${target.account}`))).body.violations).toEqual([once('Account')]);
    expect((await answerOf(await put(`${both}&DocumentNumber=${target.documentNumber}`))).body.violations).toEqual([
      once('DocumentNumber'),
    ]);
    // Names differ by case: `Limit` is not the contract's `limit`, and parameters the spec does not declare are ignored.
    expect((await list(sandbox, '?limit=1&Limit=2&other=1&other=2')).status).toBe(200);
    expect((await put(both)).status).toBe(200);
  });

  it('a User-Agent of 256 characters is accepted, of 257 refused', async () => {
    expect((await list(sandbox, '', { 'user-agent': 'u'.repeat(256) })).status).toBe(200);
    const long = await answerOf(await list(sandbox, '', { 'user-agent': 'u'.repeat(257) }));
    expect(long.body.violations).toEqual([broke('User-Agent', 'at most 256')]);
  });

  it("a User-Agent that breaks the spec's pattern (a tab, a control or non-ASCII character) is a 422 naming the header, not showing it", async () => {
    // Printable ASCII, spaces inside: accepted, as the pattern ^[\x21-\x7E][\x20-\x7E]*$ allows.
    for (const agent of ['t/1', 'acme-payments/1.4.2 (node 20; +https://acme.example)', '~!'])
      expect((await list(sandbox, '', { 'user-agent': agent })).status, agent).toBe(200);
    // fetch's Headers drop a value's leading and trailing spaces and tabs, so only inner ones arrive.
    for (const agent of ['café/1.0', 'acme\tpay/1', 'acme\u007f/1', 'acme/1 \u00a0x']) {
      const answer = await answerOf(await list(sandbox, '', { 'user-agent': agent }));
      expect(answer.status, JSON.stringify(agent)).toBe(422);
      expect(answer.body.violations).toEqual([broke('User-Agent', 'printable ASCII')]);
      expect(JSON.stringify(answer.body)).not.toContain(agent.slice(0, 4));
    }
  });

  it('reads limit as a number only when it is one: 200 is the largest page, a number-like text is refused', async () => {
    expect(((await answerOf(await list(sandbox, '?limit=200'))).body as { data: unknown[] }).data).toHaveLength(4 * 2);
    expect((await answerOf(await list(sandbox, '?limit=3'))).body.data).toHaveLength(3);
    for (const limit of ['1e2', '0x10', '+5', '12345678901234567']) {
      expect((await answerOf(await list(sandbox, `?limit=${limit}`))).body.violations, limit).toEqual([
        broke('limit', 'an integer'),
      ]);
    }
    expect((await answerOf(await list(sandbox, '?limit=-3'))).body.violations).toEqual([broke('limit', 'at least 1')]);
  });

  it('400 bad-cursor for a cursor this server did not issue to this client', async () => {
    const next = (await answerOf(await list(sandbox, '?limit=3'))).body.cursor.next as string;
    expect(next).toMatch(/^3\.[A-Za-z0-9_-]{22}$/);
    const bad = problemOf(400, 'bad-cursor', 'Malformed request');
    const [offset, mac] = next.split('.') as [string, string];
    for (const cursor of [
      `.${mac}`,
      `${offset}${mac}`,
      `4.${mac}`,
      `${offset}.${mac.slice(1)}`,
      `A.${mac}`,
      `00000000003.${mac}`,
      `${offset}.${mac}.x`,
    ]) {
      expect([cursor, (await answerOf(await list(sandbox, `?cursor=${cursor}`))).body]).toEqual([cursor, bad]);
    }
    expect((await answerOf(await list(sandbox, `?cursor=${next}`, {}, 1))).body).toEqual(bad);
    const page = await answerOf(await list(sandbox, `?cursor=${next}&limit=2`));
    expect([page.status, page.body.data.length]).toEqual([200, 2]);
  });

  it('accepts a cursor from a sandbox with the same options, and refuses one from other data', async () => {
    const next = (await answerOf(await list(sandbox, '?limit=5'))).body.cursor.next as string;
    const twin = createSandbox({ seed: 'answers', clients: 2, keysPerAccount: 4 });
    const page = await answerOf(await list(twin, `?cursor=${next}`));
    expect(page.body.data).toEqual((await answerOf(await list(sandbox, '?limit=8'))).body.data.slice(5));
    for (const other of [
      createSandbox({ seed: 'answers', clients: 2, keysPerAccount: 5 }),
      createSandbox({ seed: 'answers', clients: 3, keysPerAccount: 4 }),
      createSandbox({ seed: 'answers2', clients: 2, keysPerAccount: 4 }),
    ]) {
      expect((await list(other, `?cursor=${next}`)).status).toBe(400);
    }
  });

  it('a zero-padded offset is refused even with a signature that matches its value', async () => {
    // 10 characters of offset are accepted: a cursor that is not the issued text is not trusted.
    const next = (await answerOf(await list(sandbox, '?limit=5'))).body.cursor.next as string;
    expect((await list(sandbox, `?cursor=${next.replace(/^5/, '05')}`)).status).toBe(200);
    expect((await list(sandbox, `?cursor=${next.replace(/^5/, '0000000005')}`)).status).toBe(200);
    expect((await list(sandbox, `?cursor=${next.replace(/^5/, '00000000005')}`)).status).toBe(400);
  });

  it('422 names a missing Account, and a Request with an init is answered with the init applied', async () => {
    const token = sandbox.clients[0]!.token;
    const put = new Request(`${UPDATE}?DocumentNumber=52998224725`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"email":"a@b.com"}',
    });
    expect((await answerOf(await sandbox.fetch(put))).body.violations).toEqual([broke('Account', 'required')]);
    const bare = new Request(`${LIST}?limit=1`);
    expect(
      (await sandbox.fetch(bare, { headers: { authorization: `Bearer ${token}`, 'user-agent': 't/1' } })).status,
    ).toBe(200);
    expect((await sandbox.fetch(bare)).status).toBe(401);
  });

  it("404 for an unknown customer, 403 for another client's, 200 with the documented result otherwise", async () => {
    const two = createSandbox({ seed: 'owners2', clients: 2 });
    const other = await answerOf(await update(two, { email: 'a@b.com' }, { client: 1, as: 0 }));
    expect([other.status, other.body]).toEqual([403, problemOf(403, 'forbidden', 'Forbidden')]);
    const target = two.clients[0]!.accounts[0]!;
    const missing = await answerOf(
      await two.fetch(
        new Request(`${UPDATE}?Account=${target.account}&DocumentNumber=52998224725`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${two.clients[0]!.token}`, 'content-type': 'application/json' },
          body: '{"email":"a@b.com"}',
        }),
      ),
    );
    expect([missing.status, missing.body]).toEqual([404, problemOf(404, 'not-found', 'Customer not found')]);
    const ok = await answerOf(await update(two, { email: 'a@b.com' }));
    expect([ok.status, ok.headers['content-type'], ok.body]).toEqual([
      200,
      'application/json',
      example('UpdateSucceeded'),
    ]);
  });
});

describe('request bodies', () => {
  const sandbox = createSandbox({ seed: 'bodies' });
  const malformed = problemOf(400, 'bad-request', 'Malformed request');

  it('accepts application/json with parameters and in any case; refuses every other type, other JSON types (+json) too', async () => {
    for (const type of ['application/json; charset=utf-8', 'Application/JSON', 'application/json ; charset=utf-8']) {
      expect([
        type,
        (await update(sandbox, { email: 'a@b.com' }, { headers: { 'content-type': type } })).status,
      ]).toEqual([type, 200]);
    }
    for (const type of [
      'text/json',
      'application/jsonx',
      'application/json+xml',
      'xapplication/json',
      'application/x+json+xml',
      'application/a_b+json',
      'x-application/a+json',
      // The contract documents application/json alone: merge-patch means other semantics.
      'application/merge-patch+json',
      'application/problem+json',
      'application/vnd.baas.v1+json',
    ]) {
      const answer = await answerOf(await update(sandbox, { email: 'a@b.com' }, { headers: { 'content-type': type } }));
      expect([type, answer.body]).toEqual([type, malformed]);
      expect(answer.body.detail).toContain('Content-Type: application/json');
    }
    const none = new Request(`${UPDATE}?Account=1&DocumentNumber=52998224725`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${sandbox.clients[0]!.token}` },
      body: new Uint8Array([0x7b, 0x7d]),
    });
    const untyped = (await answerOf(await sandbox.fetch(none))).body;
    expect(untyped).toEqual(malformed);
    expect(untyped.detail).toContain('Content-Type: application/json');
  });

  it('refuses an empty body (400), one declared larger than 64 KiB unread and one that streams past it (413)', async () => {
    const target = sandbox.clients[0]!.accounts[0]!;
    const request = (init: RequestInit) =>
      new Request(`${UPDATE}?Account=${target.account}&DocumentNumber=${target.documentNumber}`, {
        method: 'PUT',
        ...init,
        headers: {
          authorization: `Bearer ${sandbox.clients[0]!.token}`,
          'content-type': 'application/json',
          ...(init.headers as Record<string, string>),
        },
      });
    const empty = (await answerOf(await sandbox.fetch(request({})))).body;
    expect(empty).toEqual(malformed);
    expect(empty.detail).toContain('empty');
    const tooLarge = {
      ...problemOf(413, 'content-too-large', 'Content too large'),
      detail: expect.stringContaining('65536 bytes'),
    };
    let pulled = 0;
    const stream = new ReadableStream({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new TextEncoder().encode('{"email":"a@b.com"}'));
        controller.close();
      },
    });
    const declared = await answerOf(
      await sandbox.fetch(
        request({ headers: { 'content-length': '65537' }, body: stream, duplex: 'half' } as RequestInit),
      ),
    );
    expect([declared.body, pulled]).toEqual([tooLarge, 0]);
    expect((await answerOf(await sandbox.fetch(request({ headers: { 'content-length': '65537' } })))).body).toEqual(
      tooLarge,
    );
    expect(
      (await sandbox.fetch(request({ headers: { 'content-length': '65536' }, body: '{"email":"a@b.com"}' }))).status,
    ).toBe(200);
    // Exactly 64 KiB of JSON is read (and judged by the contract); one byte more is not.
    const padded = (size: number) => `{"email":"a@b.com"${' '.repeat(size - 19)}}`;
    expect(new TextEncoder().encode(padded(65536)).byteLength).toBe(65536);
    expect((await sandbox.fetch(request({ body: padded(65536) }))).status).toBe(200);
    expect((await answerOf(await sandbox.fetch(request({ body: padded(65537) })))).body).toEqual(tooLarge);
  });

  it('a request whose body fails while read gets a 500 problem, and the state is unchanged', async () => {
    const before = sandbox.snapshot();
    const target = sandbox.clients[0]!.accounts[0]!;
    const failing = new ReadableStream({
      pull(controller) {
        controller.error(new Error('socket reset'));
      },
    });
    const response = await sandbox.fetch(
      new Request(`${UPDATE}?Account=${target.account}&DocumentNumber=${target.documentNumber}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${sandbox.clients[0]!.token}`, 'content-type': 'application/json' },
        body: failing,
        duplex: 'half',
      } as RequestInit),
    );
    const answer = await answerOf(response);
    expect([answer.status, answer.body]).toEqual([500, problemOf(500, 'internal', 'Internal server error')]);
    expect(sandbox.snapshot()).toEqual(before);
  });

  it('an update replaces the fields it sends, the address whole, and reset() restores the seeded data', async () => {
    const fresh = createSandbox({ seed: 'replace' });
    const seeded = fresh.snapshot();
    const address = {
      postalCode: '01310100',
      street: 'Avenida Paulista',
      number: '1000',
      neighborhood: 'Bela Vista',
      city: 'São Paulo',
      state: 'SP' as const,
    };
    expect((await update(fresh, { socialName: 'Bia', address })).status).toBe(200);
    const after = fresh.snapshot();
    expect(after.clients[0]!.accounts[0]!.data).toEqual({
      ...seeded.clients[0]!.accounts[0]!.data,
      socialName: 'Bia',
      address,
    });
    expect(after.clients[0]!.accounts[1]).toEqual(seeded.clients[0]!.accounts[1]);
    fresh.reset();
    expect(fresh.snapshot()).toEqual(seeded);
  });
});

describe('Prefer, as Prism reads it', () => {
  const sandbox = createSandbox({ seed: 'prefer', keysPerAccount: 3 });
  const prefer = async (value: string, operation: 'list' | 'update' = 'list') =>
    answerOf(
      await (operation === 'list'
        ? list(sandbox, '', { prefer: value })
        : update(sandbox, { email: 'a@b.com' }, { headers: { prefer: value } })),
    );

  it('serves a documented example by name, with its status and media type', async () => {
    for (const name of ['NoKeys', 'LastPage', 'FirstPage']) {
      const answer = await prefer(`example=${name}`);
      expect([name, answer.status, answer.headers['content-type'], answer.body]).toEqual([
        name,
        200,
        'application/json',
        example(name),
      ]);
    }
    const succeeded = await prefer('example=UpdateSucceeded', 'update');
    expect([succeeded.status, succeeded.body]).toEqual([200, example('UpdateSucceeded')]);
  });

  it("serves an error example with this request's id and the headers its status requires", async () => {
    const missing = await prefer('example=MissingToken');
    expect([
      missing.status,
      missing.headers['content-type'],
      missing.headers['www-authenticate'],
      missing.body,
    ]).toEqual([401, 'application/problem+json', 'Bearer', served('MissingToken')]);
    const limited = await prefer('code=429');
    expect([limited.status, limited.headers['retry-after'], limited.body]).toEqual([429, '30', served('RateLimited')]);
    const both = await prefer(' code = 503 , example = UpstreamUnavailable ');
    expect([both.status, both.headers['retry-after'], both.body]).toEqual([503, '30', served('UpstreamUnavailable')]);
    const malformed = await prefer('code=400');
    expect([malformed.status, malformed.headers['content-type'], malformed.body]).toEqual([
      400,
      'application/problem+json',
      served('MalformedJson'),
    ]);
    const notFound = await prefer('code=404', 'update');
    expect([
      notFound.status,
      notFound.headers['retry-after'],
      notFound.headers['www-authenticate'],
      notFound.body,
    ]).toEqual([404, undefined, undefined, served('CustomerNotFound')]);
  });

  it('answers 400 for a code or an example the operation does not document', async () => {
    // The detail names what was asked and the operation (and the status, for an example of one).
    const refused = (asked: string) => ({
      ...problemOf(400, 'bad-request', 'Malformed request'),
      detail: expect.stringMatching(new RegExp(asked)),
    });
    expect((await prefer('code=404')).body).toEqual(refused('code=404.*listPixKeys'));
    expect((await prefer('example=Nope')).body).toEqual(refused('example=Nope.*listPixKeys'));
    expect((await prefer('example=404')).body).toEqual(refused('example=404.*listPixKeys'));
    expect((await prefer('example=LastPage', 'update')).body).toEqual(refused('example=LastPage.*updateNaturalPerson'));
    expect((await prefer('code=429, example=LastPage')).body).toEqual(refused('example=LastPage.*listPixKeys.*429'));
  });

  it("code=200 without an example, and anything it cannot read, get the sandbox's own answer", async () => {
    const own = (await answerOf(await list(sandbox))).text;
    for (const value of ['code=200', 'code=42', 'code=4290', 'code=', 'example=', 'dynamic=true', 'code']) {
      const answer = await prefer(value);
      expect([value, answer.status, answer.text]).toEqual([value, 200, own]);
    }
  });

  it('code=204 on the update applies it and answers the documented 204, with no body', async () => {
    const answer = await answerOf(
      await update(sandbox, { socialName: 'Bia 204' }, { account: 1, headers: { prefer: 'code=204' } }),
    );
    expect([answer.status, answer.text, answer.headers['content-type']]).toEqual([204, '', undefined]);
    expect(answer.headers['x-request-id']).toEqual(expect.any(String));
    expect(sandbox.snapshot().clients[0]!.accounts[1]!.data.socialName).toBe('Bia 204');
    // A refused update keeps its own error: a 204 is only ever a success.
    const refused = await answerOf(
      await update(sandbox, { email: 'not an e-mail' }, { headers: { prefer: 'code=204' } }),
    );
    expect(refused.status).toBe(422);
    // The key list documents no 204.
    expect((await prefer('code=204')).status).toBe(400);
  });

  it("comes after the token: a request without one gets the sandbox's 401", async () => {
    const answer = await answerOf(await sandbox.fetch(LIST, { headers: { 'user-agent': 't/1', prefer: 'code=429' } }));
    expect([answer.status, answer.body.type]).toEqual([401, 'https://sandbox.baas.example/problems/unauthorized']);
  });
});

describe('injected faults', () => {
  it('refuses a fault with a bad count or status', () => {
    const sandbox = createSandbox({ seed: 'f' });
    for (const times of [0, -1, 1.5])
      expect(refusal(() => sandbox.inject({ operation: '*', status: 500, times }))).toMatch(
        /fault: times .*positive integer$/,
      );
    for (const status of [99, 600, 200.5])
      expect(refusal(() => sandbox.inject({ operation: '*', status }))).toMatch(
        /^sandbox fault: status .*from 100 to 599/,
      );
    expect(() => createSandbox({ faults: [{ operation: '*', status: 700 }] })).toThrow(RangeError);
    sandbox.inject({ operation: '*', status: 100 });
    sandbox.inject({ operation: '*', status: 599 });
  });

  it('applies to the next N calls of its operation, first armed first used, before the token is checked', async () => {
    const sandbox = createSandbox({ seed: 'faults-n' });
    sandbox.inject({ operation: 'updateNaturalPerson', status: 500 });
    sandbox.inject({ operation: 'listPixKeys', status: 503, times: 2 });
    sandbox.inject({ operation: '*', status: 502 });
    const statuses = [];
    for (let i = 0; i < 4; i += 1)
      statuses.push((await sandbox.fetch(LIST, { headers: { 'user-agent': 't/1' } })).status);
    expect(statuses).toEqual([503, 503, 502, 401]);
    expect((await update(sandbox, { email: 'a@b.com' })).status).toBe(500);
    expect((await update(sandbox, { email: 'a@b.com' })).status).toBe(200);
  });

  it('serves the documented example for a status, its body and headers as given, or no body', async () => {
    const sandbox = createSandbox({ seed: 'faults-body' });
    sandbox.inject({ operation: 'listPixKeys', status: 503 });
    const documented = await answerOf(await list(sandbox));
    expect([documented.status, documented.headers, documented.body]).toEqual([
      503,
      { 'content-type': 'application/problem+json', 'retry-after': '30', 'x-request-id': 'ID' },
      served('UpstreamUnavailable'),
    ]);
    sandbox.inject({ operation: 'listPixKeys', status: 429, headers: { 'retry-after': '7', 'x-extra': 'yes' } });
    const headed = await answerOf(await list(sandbox));
    expect([headed.status, headed.headers['retry-after'], headed.headers['x-extra'], headed.body]).toEqual([
      429,
      '7',
      'yes',
      served('RateLimited'),
    ]);
    sandbox.inject({ operation: 'listPixKeys', status: 500, body: 'oops' });
    const text = await answerOf(await list(sandbox));
    expect([text.status, text.headers, text.text]).toEqual([
      500,
      { 'content-type': 'text/plain', 'x-request-id': 'ID' },
      'oops',
    ]);
    sandbox.inject({ operation: 'listPixKeys', status: 401, body: { title: 'nope' } });
    const problem = await answerOf(await list(sandbox));
    expect([problem.headers, problem.text]).toEqual([
      { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer', 'x-request-id': 'ID' },
      '{"title":"nope"}',
    ]);
    sandbox.inject({ operation: 'listPixKeys', status: 400, body: { title: 'bad' } });
    expect((await answerOf(await list(sandbox))).headers['content-type']).toBe('application/problem+json');
    sandbox.inject({ operation: 'listPixKeys', status: 200, body: { cursor: { next: null }, data: [] } });
    const page = await answerOf(await list(sandbox));
    expect([page.status, page.headers['content-type'], page.body]).toEqual([
      200,
      'application/json',
      { cursor: { next: null }, data: [] },
    ]);
    for (const status of [200, 418, 404]) {
      sandbox.inject({ operation: 'listPixKeys', status });
      const empty = await answerOf(await list(sandbox));
      expect([empty.status, empty.headers, empty.text]).toEqual([status, { 'x-request-id': 'ID' }, '']);
    }
  });

  it('waits delayMs, then serves normally', async () => {
    vi.useFakeTimers();
    const sandbox = createSandbox({ seed: 'faults-delay' });
    sandbox.inject({ operation: '*', delayMs: 5_000 });
    let status = 0;
    const pending = list(sandbox).then(async (response) => {
      status = response.status;
      return (await answerOf(response)).body as { data: unknown[] };
    });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(status).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    const body = await pending;
    expect([status, body.data.length]).toEqual([200, 10]);
  });

  it("drops the connection: the in-process fetch rejects as Node's fetch does", async () => {
    const sandbox = createSandbox({ seed: 'faults-drop' });
    sandbox.inject({ operation: 'listPixKeys', drop: true });
    const error = (await list(sandbox).catch((e: unknown) => e)) as TypeError & { cause: Error & { code: string } };
    expect(error).toBeInstanceOf(TypeError);
    expect([error.message, error.cause.message, error.cause.code]).toEqual([
      'fetch failed',
      'other side closed',
      'UND_ERR_SOCKET',
    ]);
    expect((await list(sandbox)).status).toBe(200);
  });

  it('faults given at creation are armed again by reset()', async () => {
    const sandbox = createSandbox({ seed: 'faults-reset', faults: [{ operation: 'listPixKeys', status: 503 }] });
    expect((await list(sandbox)).status).toBe(503);
    expect((await list(sandbox)).status).toBe(200);
    sandbox.inject({ operation: 'listPixKeys', status: 500 });
    sandbox.reset();
    expect((await list(sandbox)).status).toBe(503);
    expect((await list(sandbox)).status).toBe(200);
  });
});

describe('rate limit', () => {
  it('a window of 1000 ms by default; the 429 says the limit and when to retry', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const sandbox = createSandbox({ seed: 'rl-default', rateLimit: { requests: 1 } });
    expect((await list(sandbox)).status).toBe(200);
    vi.advanceTimersByTime(999);
    const limited = await answerOf(await list(sandbox));
    expect([limited.status, limited.headers['retry-after'], limited.body]).toEqual([
      429,
      '1',
      problemOf(429, 'rate-limited', 'Too many requests'),
    ]);
    expect(limited.body.detail).toContain('(1 request per 1,000');
    vi.advanceTimersByTime(1);
    expect((await list(sandbox)).status).toBe(200);
  });

  it('counts per client after the token is known, rounds Retry-After up, and reset() fills the buckets', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const sandbox = createSandbox({ seed: 'rl', clients: 2, rateLimit: { requests: 2, windowMs: 10_000 } });
    expect(
      (await sandbox.fetch(LIST, { headers: { authorization: 'Bearer sbx_nobody', 'user-agent': 't/1' } })).status,
    ).toBe(401);
    expect((await list(sandbox)).status).toBe(200);
    expect((await list(sandbox)).status).toBe(200);
    // One request comes back every 5 s: 1.5 s on, 0.3 of one is back, 3.5 s to go.
    vi.advanceTimersByTime(1_500);
    const limited = await answerOf(await list(sandbox));
    expect([limited.status, limited.headers['retry-after']]).toEqual([429, '4']);
    expect(limited.body.detail).toContain('(2 requests per 10,000');
    expect((await list(sandbox, '', {}, 1)).status).toBe(200);
    sandbox.reset();
    expect((await list(sandbox)).status).toBe(200);
    expect((await list(sandbox)).status).toBe(200);
    expect((await list(sandbox)).status).toBe(429);
  });

  it('runs on performance.now, which fake timers move', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const sandbox = createSandbox({ seed: 'rl-clock', rateLimit: { requests: 1, windowMs: 60_000 } });
    expect((await list(sandbox)).status).toBe(200);
    expect((await list(sandbox)).status).toBe(429);
    vi.advanceTimersByTime(60_000);
    expect((await list(sandbox)).status).toBe(200);
  });
});

describe('the words of the sandbox', () => {
  it("pins each problem's detail once, word for word; the tests above assert type, title, status and the fields named", async () => {
    const sandbox = createSandbox({ seed: 'words', clients: 2, rateLimit: { requests: 1_000 } });
    const token = sandbox.clients[0]!.token;
    const target = sandbox.clients[0]!.accounts[0]!;
    const put = (init: RequestInit, query = `Account=${target.account}&DocumentNumber=${target.documentNumber}`) =>
      sandbox.fetch(
        new Request(`${UPDATE}?${query}`, {
          method: 'PUT',
          ...init,
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            ...(init.headers as Record<string, string>),
          },
        }),
      );
    const failing = new ReadableStream({
      pull(controller) {
        controller.error(new Error('socket reset'));
      },
    });
    const body = async (response: Promise<Response>) =>
      (await answerOf(await response)).body as { detail: string; violations?: { reason: string }[] };
    const detail = async (response: Promise<Response>) => (await body(response)).detail;
    const reasons = async (response: Promise<Response>) => {
      const problem = await body(response);
      return [problem.detail, ...problem.violations!.map((v) => v.reason)];
    };
    vi.useFakeTimers({ toFake: ['performance'] });
    const limited = createSandbox({ seed: 'words', rateLimit: { requests: 1, windowMs: 10_000 } });
    await list(limited);
    const words = {
      path: await detail(sandbox.fetch('http://s/v2/api/pix/keys', { headers: { authorization: `Bearer ${token}` } })),
      method: await detail(sandbox.fetch(LIST, { method: 'POST' })),
      noToken: await detail(sandbox.fetch(LIST, { headers: { 'user-agent': 't/1' } })),
      unknownToken: await detail(
        sandbox.fetch(LIST, { headers: { 'user-agent': 't/1', authorization: 'Bearer sbx_unknown' } }),
      ),
      oneField: await reasons(list(sandbox, '?limit=0')),
      fields: await reasons(list(sandbox, '?limit=abc&cursor=a&cursor=b', { 'user-agent': 'u'.repeat(257) })),
      noUserAgent: await reasons(list(sandbox, '?limit=1.5', { 'user-agent': '' })),
      userAgentPattern: await reasons(list(sandbox, '', { 'user-agent': 'caf\u00e9/1.0' })),
      notAnObject: await reasons(update(sandbox, [])),
      noAccount: await reasons(put({ body: '{"email":"a@b.com"}' }, 'DocumentNumber=52998224725')),
      cursor: await detail(list(sandbox, '?cursor=1.x')),
      forbidden: await detail(update(sandbox, { email: 'a@b.com' }, { client: 1, as: 0 })),
      customer: await detail(
        put({ body: '{"email":"a@b.com"}' }, `Account=${target.account}&DocumentNumber=52998224725`),
      ),
      mediaType: await detail(put({ headers: { 'content-type': 'text/json' }, body: '{}' })),
      empty: await detail(put({})),
      tooLarge: await detail(put({ headers: { 'content-length': '65537' } })),
      failed: await detail(put({ body: failing, duplex: 'half' } as RequestInit)),
      preferCode: await detail(list(sandbox, '', { prefer: 'code=404' })),
      preferExample: await detail(list(sandbox, '', { prefer: 'code=429, example=LastPage' })),
      rateLimited: await detail(list(limited)),
    };
    expect(words).toEqual({
      path: 'No operation of the contract has this path.',
      method: 'This path answers GET only.',
      noToken: 'A bearer token is required: send the Authorization header as Bearer <token>.',
      unknownToken: 'The bearer token is not known to this sandbox.',
      oneField: ['1 field broke a rule of the contract.', 'limit must be at least 1'],
      fields: [
        '3 fields broke a rule of the contract.',
        'cursor must be sent once: it takes one value',
        'limit must be an integer',
        'User-Agent must be at most 256 characters',
      ],
      noUserAgent: [
        '2 fields broke a rule of the contract.',
        'limit must be an integer',
        'User-Agent is required: the name of the calling application',
      ],
      userAgentPattern: [
        '1 field broke a rule of the contract.',
        'User-Agent must be printable ASCII: no tab, other control character or character outside ASCII, and no space first',
      ],
      notAnObject: ['1 field broke a rule of the contract.', 'the body must be an object'],
      noAccount: ['1 field broke a rule of the contract.', 'Account is required'],
      cursor: 'The cursor was not issued to this client by this server; start again without a cursor.',
      forbidden: 'This token may not act on the requested account.',
      customer: 'No customer account matches the given Account and DocumentNumber.',
      mediaType:
        'The request body must be sent as Content-Type: application/json (the only media type the contract documents for it).',
      empty: 'The request body is empty; it must be a JSON object.',
      tooLarge: 'The request body is larger than 65536 bytes.',
      failed: 'The sandbox failed to handle the request.',
      preferCode: 'Prefer asks for code=404, which listPixKeys does not document.',
      preferExample: 'Prefer asks for example=LastPage, which listPixKeys does not document for 429.',
      rateLimited: 'The rate limit of this client (1 request per 10,000 ms) was reached. Retry after 10 seconds.',
    });
    // Wherever a detail is shown (a BaasApiError's message, the command line) it is masked: each is left
    // whole by it (`Authorization: Bearer <token>` was shown `Authorization: [REDACTED]`).
    for (const text of Object.values(words).flat()) expect(redactText(text)).toBe(text);
  });
});
