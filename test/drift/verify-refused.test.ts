// verify when the credentials are the problem, against a local HTTP server: a service that refuses
// every token (401 or 403), a token endpoint that refuses the client credentials, and no credentials
// at all. Each ends with exit 2 naming the credentials, never DRIFT, never blaming limit=201 or the
// pages; the probe without a token still runs.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { staticToken } from '../../src/cli/connection/credentials.js';
import { UsageError, type VerifyOptions } from '../../src/verify/options.js';
import { runVerify } from '../../src/verify/run.js';
import type { VerifyReport } from '../../src/verify/report.js';
import { startLocalServer, type LocalServer } from './verify-local-server.js';
import { main } from './verify-cli.js';

const TOKEN = 'refused-token-0123456789';
const SECRET = 'client-secret-0123456789';
const problem = (status: number) =>
  JSON.stringify({ type: 'about:blank', title: status === 401 ? 'Unauthorized' : 'Forbidden', status });

let dir: string;
let server: LocalServer | undefined;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verify-refused-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A service that refuses every token with `status`, and a request without one with 401 (as the contract says), as problem details. */
const refusing = (status: number) =>
  startLocalServer((req, res) => {
    const answer = req.headers.authorization ? status : 401;
    res
      .writeHead(answer, { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer' })
      .end(problem(answer));
  });

async function run(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const reportFile = join(dir, `report-${Math.random().toString(36).slice(2)}.json`);
  const code = await main([...argv, '--report', reportFile], { out: (t) => out.push(t), err: (t) => err.push(t), env });
  const report =
    code === 2 && err.length ? undefined : (JSON.parse(await readFile(reportFile, 'utf8')) as VerifyReport);
  return { code, out: out.join('\n'), err: err.join('\n'), report };
}

const verdicts = (report: VerifyReport | undefined) =>
  Object.fromEntries(report!.checks.map((c) => [c.check, c.verdict]));

describe('a service that refuses the token', () => {
  it.each([401, 403])(
    '%i: exit 2, the credentials named first and in the summary, no drift, limit=201 and the pages not blamed',
    async (status) => {
      server = await refusing(status);
      const { code, out, report } = await run(['--base-url', server.url, '--token', TOKEN]);
      expect(code).toBe(2);
      expect(report!.checks[0]).toMatchObject({
        check: 'credentials',
        verdict: 'error',
        seen: `credentials refused (${status})`,
      });
      expect(report!.credentialsRefused).toMatchObject({ by: 'service', status });
      expect(report!.drifted).toBe(false);
      expect(report!.counts.drift).toBe(0);
      // The checks that need an accepted token were not run; none of them is drift.
      expect(verdicts(report)).toMatchObject({
        'list-keys with limit=201': 'error',
        'cursor.next null on the last page': 'not-seen',
      });
      expect(report!.checks.find((c) => c.check === 'list-keys with limit=201')!.seen).toMatch(/^not run/);
      expect(report!.checks.some((c) => /^list-keys page/.test(c.check))).toBe(false);
      // "did not end within N pages" only after N pages: none was read.
      expect(report!.checks.find((c) => c.check === 'cursor.next null on the last page')!.seen).toMatch(
        /^0 page\(s\) read/,
      );
      // The summary: the verdict, and just above it the credentials' status and where they came from.
      const lines = out.split('\n');
      const verdict = lines.findIndex((line) => line.startsWith('CREDENTIALS REFUSED:'));
      expect(lines.filter((line) => line.startsWith('CREDENTIALS REFUSED'))).toHaveLength(1);
      for (const named of [`(${status})`, '--token', 'BAAS_TOKEN']) expect(lines[verdict - 1]).toContain(named);
      expect(out).not.toMatch(/^DRIFT/m);
      expect(out).not.toContain(TOKEN);
    },
  );

  it('sends page 1 with the token and the probe without one; nothing else (no limit=201, no more pages)', async () => {
    server = await refusing(401);
    const { report } = await run(['--base-url', server.url, '--token', TOKEN, '--pages', '3']);
    expect(
      server.received.map((r) => [new URL(r.url, server!.url).searchParams.get('limit'), r.authorization]),
    ).toEqual([
      ['50', `Bearer ${TOKEN}`],
      [null, undefined],
    ]);
    // A 401 without a token is what the contract says.
    expect(verdicts(report)['list-keys without a token']).toBe('ok');
  });

  it('refused credentials decide the exit status even when the probe without a token drifts: exit 2, not 1', async () => {
    server = await startLocalServer((req, res) => {
      // The token is refused; without one the answer breaks the contract (plain text).
      if (req.headers.authorization)
        return void res
          .writeHead(401, { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer' })
          .end(problem(401));
      res.writeHead(401, { 'content-type': 'text/plain' }).end('no');
    });
    const { code, out, report } = await run(['--base-url', server.url, '--token', TOKEN]);
    expect(verdicts(report)['list-keys without a token']).toBe('drift');
    expect(code).toBe(2);
    expect(out.split('\n').at(-2)).toMatch(/^CREDENTIALS REFUSED/);
  });

  it('a token from BAAS_TOKEN, refused: the same, and the first line names a bearer token, never the token', async () => {
    server = await refusing(401);
    const { code, out } = await run(['--base-url', server.url], { BAAS_TOKEN: TOKEN });
    expect(code).toBe(2);
    expect(out.split('\n')[0]).toBe(`verify ${server.url}/ with a bearer token`);
    expect(out).not.toContain(TOKEN);
  });
});

describe('client credentials the token endpoint refuses', () => {
  it('exit 2, refused by the token endpoint with its status and code, the client-credentials flags named; no drift', async () => {
    server = await startLocalServer((req, res) => {
      if (req.url === '/token')
        return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_client"}');
      res
        .writeHead(401, { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer' })
        .end(problem(401));
    });
    const { code, out, report } = await run(
      ['--base-url', server.url, '--token-url', `${server.url}/token`, '--client-id', 'cid'],
      { BAAS_CLIENT_SECRET: SECRET },
    );
    expect(code).toBe(2);
    expect(report!.credentials).toBe('client credentials');
    expect(report!.credentialsRefused).toMatchObject({ by: 'token endpoint', status: 401, code: 'invalid_client' });
    expect(report!.checks[0]).toMatchObject({ check: 'credentials', verdict: 'error' });
    expect(report!.drifted).toBe(false);
    const lines = out.split('\n');
    const summary = lines[lines.findIndex((line) => line.startsWith('CREDENTIALS REFUSED:')) - 1]!;
    for (const named of ['--client-id', 'BAAS_CLIENT_SECRET']) expect(summary).toContain(named);
    // No list request went out with a token; the probe without one did.
    expect(server.received.filter((r) => r.url !== '/token').map((r) => r.authorization)).toEqual([undefined]);
    expect(out).not.toContain(SECRET);
  });
});

describe('a --token-url that is not a token endpoint', () => {
  it.each([404, 405])('%i: the summary blames --token-url, not the client id or secret', async (status) => {
    server = await startLocalServer((req, res) => {
      if (req.url === '/tokn') return void res.writeHead(status, { 'content-type': 'text/plain' }).end('no');
      res
        .writeHead(401, { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer' })
        .end(problem(401));
    });
    const { code, out, report } = await run(
      ['--base-url', server.url, '--token-url', `${server.url}/tokn`, '--client-id', 'cid'],
      { BAAS_CLIENT_SECRET: SECRET },
    );
    expect(code).toBe(2);
    const lines = out.split('\n');
    // Not "refused": the credentials were never looked at.
    expect(out).not.toContain('CREDENTIALS REFUSED');
    const summary = lines[lines.findIndex((line) => line.startsWith('NO TOKEN:')) - 1]!;
    expect(summary).toContain(String(status));
    expect(summary).toContain('--token-url');
    expect(summary).not.toContain('--client-id');
    expect(report!.credentialsRefused?.message).toBe(summary);
    expect(out).not.toContain(SECRET);
  });
});

describe('no credentials at all', () => {
  it.each([
    ['nothing', {}],
    ['an empty BAAS_TOKEN', { BAAS_TOKEN: '' }],
  ])(
    '%s: a usage error (exit 2) naming the flags and variables that give credentials; nothing sent',
    async (_what, env) => {
      server = await refusing(401);
      const out: string[] = [];
      const err: string[] = [];
      const code = await main(['--base-url', server.url], { out: (t) => out.push(t), err: (t) => err.push(t), env });
      expect(code).toBe(2);
      expect(out).toEqual([]);
      // The error is the last line printed, after the short usage.
      const last = err.at(-1)!;
      for (const named of ['--token', 'BAAS_TOKEN', '--token-url', '--client-id', 'BAAS_CLIENT_SECRET'])
        expect(last).toContain(named);
      expect(server.received).toEqual([]);
    },
  );

  it('runVerify refuses options built by hand without credentials the same way, before the first request', async () => {
    const sent: string[] = [];
    const options: VerifyOptions = {
      baseUrl: 'http://127.0.0.1:9',
      credentials: staticToken(undefined),
      pages: 1,
      limit: 1,
      maxRequests: 5,
      timeBudgetMs: 10_000,
      requestTimeoutMs: 5_000,
      maxResponseBytes: 1024,
    };
    await expect(
      runVerify(options, {
        fetch: async (url) => {
          sent.push(url);
          return new Response(null, { status: 500 });
        },
      }),
    ).rejects.toThrow(UsageError);
    await expect(
      runVerify(options, {
        fetch: async (url) => {
          sent.push(url);
          return new Response(null, { status: 500 });
        },
      }),
    ).rejects.toThrow(/--token/);
    expect(sent).toEqual([]);
  });
});
