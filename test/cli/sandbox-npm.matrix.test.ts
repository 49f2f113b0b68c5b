// `npm run sandbox` (the command line's sandbox) as a user runs it: it prints the synthetic tokens
// and accounts to use, serves them with state, logs one line per request (never a token or a CPF;
// the fields of a 422 named), serves --rate-limit and --faults as its banner says, and the same seed
// gives the same banner. A matrix file: each case starts npm, which starts the sources through tsx (a
// tree of processes per case, 7.8 s of CPU in npm test); the command line's own behaviour is tested in
// process in sandbox.test.ts, and its stop on npm's signals in signals.matrix.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { createSandbox } from '../../src/sandbox/index.js';
import { eventually, expectNothingLeft, killTree, startSandboxCommand, startUntil } from './processes.js';

const started: number[] = [];
afterEach(() => {
  killTree(started.splice(0));
});

describe('npm run sandbox', () => {
  it('prints tokens and accounts that work, keeps state, and logs each request without a token or a CPF', async () => {
    const sandbox = await startSandboxCommand(
      started,
      ...['--seed', 'cli-test', '--clients', '2', '--accounts', '1', '--keys', '3', '--list'],
    );
    const banner = sandbox.output();
    expect(banner).toContain(`Sandbox listening on ${sandbox.url}`);
    const tokens = [...banner.matchAll(/client \d+: Authorization: Bearer (sbx_[0-9a-f]+)/g)].map((m) => m[1]!);
    const accounts = [...banner.matchAll(/Account=(\d+)\s+DocumentNumber=(\d{11})/g)].map((m) => ({
      account: m[1]!,
      cpf: m[2]!,
    }));
    expect(tokens).toHaveLength(2);
    expect(accounts).toHaveLength(2);
    const [token] = tokens;
    const [{ account, cpf }] = accounts as [{ account: string; cpf: string }];
    const headers = { authorization: `Bearer ${token}`, 'user-agent': 'test/1', 'content-type': 'application/json' };

    const page = await fetch(`${sandbox.url}/v2/api/pix/keys/list-keys?limit=10`, { headers });
    expect(page.status).toBe(200);
    expect(((await page.json()) as { data: unknown[] }).data).toHaveLength(3);
    const update = `${sandbox.url}/v2/api/baas-onboarding/account/natural-person?Account=${account}&DocumentNumber=${cpf}`;
    expect((await fetch(update, { method: 'PUT', headers, body: '{"email":"someone@example.com"}' })).status).toBe(200);
    const bad = await fetch(update, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ email: 'not-an-email', address: { state: 'XX' } }),
    });
    expect(bad.status).toBe(422);
    // Another client's customer: the sandbox knows whose account is whose.
    const foreign = accounts[1]!;
    const other = `${sandbox.url}/v2/api/baas-onboarding/account/natural-person?Account=${foreign.account}&DocumentNumber=${foreign.cpf}`;
    expect((await fetch(other, { method: 'PUT', headers, body: '{"email":"x@example.com"}' })).status).toBe(403);

    // Client credentials, as the banner gives them: the token URL, client 1's id and secret.
    const tokenUrl = /Token URL .*: (http:\/\/\S+\/oauth\/token)$/m.exec(banner)?.[1];
    expect(tokenUrl).toBe(`${sandbox.url}/oauth/token`);
    // The counts line (its words pinned above): clients, accounts, per client, keys, per account.
    expect(
      banner
        .split('\n')
        .find((line) => line.startsWith('Seeded '))
        ?.match(/\d[\d,]*(?= )/g),
    ).toEqual(['2', '2', '1', '6', '3']);
    const [, clientId, clientSecret] = /client_id=(sbx_client_[0-9a-f]+) {2}client_secret=(sbx_secret_[0-9a-f]+)/.exec(
      banner,
    )!;
    const issued = await fetch(tokenUrl!, {
      method: 'POST',
      headers: {
        authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const { access_token: accessToken } = (await issued.json()) as { access_token: string };
    expect(
      (
        await fetch(`${sandbox.url}/v2/api/pix/keys/list-keys?limit=1`, {
          headers: { ...headers, authorization: `Bearer ${accessToken}` },
        })
      ).status,
    ).toBe(200);

    expect(await eventually(() => /natural-person HTTP 403/.test(sandbox.output()), 5_000)).toBe(true);
    const log = sandbox.output().slice(banner.length);
    // One line per request (its words are the request log's, pinned in request-log-edges.test.ts).
    expect(log).toMatch(/^GET \S+list-keys HTTP 200 /m);
    expect(log).toMatch(/^PUT \S+natural-person HTTP 200 /m);
    expect(log).toMatch(/^PUT \S+natural-person HTTP 422 .*email.*address.state/m);
    expect(log).toMatch(/^POST .oauth.token HTTP 200 /m);
    for (const secret of [
      ...tokens,
      ...accounts.map((a) => a.cpf),
      clientId!,
      clientSecret!,
      btoa(`${clientId}:${clientSecret}`),
      accessToken,
    ])
      expect(log).not.toContain(secret);
    process.kill(sandbox.pid, 'SIGTERM');
    await expectNothingLeft(sandbox.tree, sandbox.port);
  });

  it('serves --rate-limit and --faults as its banner says: the seed draws the faults, their Retry-After as given', async () => {
    const seed = 'cli-limits';
    const fault = { operation: '*', status: 503, share: 0.5, retryAfterSeconds: 0 } as const;
    const sandbox = await startSandboxCommand(
      started,
      ...['--seed', seed, '--clients', '1', '--accounts', '1', '--keys', '1'],
      ...['--rate-limit', '1', '--faults', '503:0.5:retry-after-seconds=0'],
    );
    const banner = sandbox.output();
    expect(banner).toMatch(/^Rate limit: 1 request per second per client;/m);
    expect(banner).toMatch(/^Faults: 503 on 50 % of API answers \(Retry-After 0 s\)\.$/m);
    const token = /Bearer (sbx_[0-9a-f]+)/.exec(banner)![1]!;
    const call = async () => {
      const response = await fetch(`${sandbox.url}/v2/api/pix/keys/list-keys`, {
        headers: { authorization: `Bearer ${token}`, 'user-agent': 't/1' },
      });
      await response.arrayBuffer();
      return {
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        policy: response.headers.get('ratelimit-policy'),
      };
    };
    const answers = [];
    for (let i = 0; i < 20; i += 1) answers.push(await call());
    // The same seed in process draws the same calls (faults come before the token is read).
    const twin = createSandbox({ seed, clients: 1, accountsPerClient: 1, keysPerAccount: 1, faults: [fault] });
    const expected: boolean[] = [];
    for (let i = 0; i < 20; i += 1)
      expected.push((await twin.fetch(`${sandbox.url}/v2/api/pix/keys/list-keys`)).status === 503);
    expect(answers.map((answer) => answer.status === 503)).toEqual(expected);
    expect(expected.filter(Boolean).length).toBeGreaterThan(3);
    for (const answer of answers.filter((a) => a.status === 503))
      expect(answer).toMatchObject({ retryAfter: '0', policy: null });
    const served = answers.filter((answer) => answer.status !== 503);
    expect(served[0]).toMatchObject({ status: 200, policy: '"default";q=1;w=1' });
    // One request a second: the ones that follow soon after are refused, until one is back.
    let refused = answers.find((answer) => answer.status === 429);
    for (let i = 0; refused === undefined && i < 500; i += 1) {
      const answer = await call();
      if (answer.status === 429) refused = answer;
    }
    expect(refused).toEqual({ status: 429, retryAfter: '1', policy: '"default";q=1;w=1' });
    process.kill(sandbox.pid, 'SIGTERM');
    await expectNothingLeft(sandbox.tree, sandbox.port);
  });

  it('the same seed gives the same tokens and accounts; bad counts are usage errors that name the option', async () => {
    const first = await startSandboxCommand(started, '--seed', 'again', '--clients', '1');
    // The port differs from run to run: the rest is the same, client secrets included.
    const banner = (text: string) =>
      text.slice(text.indexOf('Seed '), text.indexOf('  try:')).replace(/127\.0\.0\.1:\d+/g, 'HOST');
    const once = banner(first.output());
    process.kill(first.pid, 'SIGINT');
    await expectNothingLeft(first.tree, first.port);
    const second = await startSandboxCommand(started, '--seed', 'again', '--clients', '1');
    expect(banner(second.output())).toBe(once);
    expect(once).toMatch(/Bearer sbx_/);
    expect(once).toMatch(/client_secret=sbx_secret_/);
    process.kill(second.pid, 'SIGINT');
    await expectNothingLeft(second.tree, second.port);

    const bad = startUntil('npm', ['run', '--silent', 'sandbox', '--', '--clients', '0'], /never/, {
      cwd: repoRoot,
      timeoutMs: 60_000,
    });
    await expect(bad.ready).rejects.toThrow(/exited .2.[\s\S]*--clients .*got "0"/);
  });
});
