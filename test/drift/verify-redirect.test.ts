// verify follows redirects only as the client does (GET, same origin, at most 5 hops). A redirect to
// another origin, of the write, or past 5 hops is a DRIFT row naming Location, shown by its origin
// only; nothing is sent to the other origin (so no Authorization), and what it would say is never
// scored as the provider's answer.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runVerify } from '../../src/verify/run.js';
import { startDriftServer, TOKEN, type DriftServer } from '../support/drift-server.js';
import { CHECK } from './check-names.js';
import { startLocalServer, type LocalServer } from './verify-local-server.js';
import { main, parseVerifyArgs, writeFlags } from './verify-cli.js';

const LIST = '/v2/api/pix/keys/list-keys';
const CPF = '52998224725';

let dir: string;
let other: DriftServer;
const servers: LocalServer[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verify-redirect-'));
  // A conformant service on another port: another origin that would score OK if anything reached it.
  other = await startDriftServer();
});
afterAll(async () => {
  await other.close();
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function provider(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<LocalServer> {
  const server = await startLocalServer(handler);
  servers.push(server);
  return server;
}

/**
 * A row for a redirect not followed: drift, `seen` giving the status and the place named by its origin
 * alone (nothing after it), and the Location problem whose rule names `rule`.
 */
function notFollowed(status: number, origin: string | undefined, rule: string) {
  const escaped = (origin ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return {
    verdict: 'drift',
    seen: expect.stringMatching(
      new RegExp(origin === undefined ? `^${status} redirect, ` : `^${status} redirect to ${escaped}, `),
    ),
    problems: [{ part: 'header', pointer: '/location', rule: expect.stringContaining(rule) }],
  };
}
const ANOTHER_ORIGIN = 'another origin';

const redirect = (res: ServerResponse, location: string, status = 302) =>
  res.writeHead(status, { location, 'content-type': 'application/json' }).end('{}');
const problem = (res: ServerResponse, status: number) =>
  res
    .writeHead(status, {
      'content-type': 'application/problem+json',
      // The contract requires the challenge on every 401.
      ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}),
    })
    .end(JSON.stringify({ status, title: 'x' }));

describe('a redirect to another origin', () => {
  it.each([302, 307, 308, 301, 303])(
    '%i on a read: a DRIFT row naming Location, the other origin shown as its origin only, and sent nothing',
    async (status) => {
      const before = other.requests;
      const server = await provider((req, res) => {
        const url = new URL(req.url!, 'http://x');
        // Path, query and userinfo of the target must not reach the report.
        redirect(
          res,
          `http://user:pw@127.0.0.1:${new URL(other.url).port}${LIST}${url.search}&DocumentNumber=${CPF}`,
          status,
        );
      });
      const report = await runVerify(parseVerifyArgs(['--base-url', server.url, '--token', TOKEN]));
      const page = report.checks.find((c) => c.check === CHECK.page1)!;
      expect(page).toMatchObject({
        ...notFollowed(status, other.url, ANOTHER_ORIGIN),
        expected: '200 application/json PixKeyList',
      });
      // Both probes redirect the same way: drift too, never scored from the other origin.
      expect(report.checks.filter((c) => c.problems.some((p) => p.rule.includes(ANOTHER_ORIGIN)))).toHaveLength(3);
      expect(report.drifted).toBe(true);
      expect(other.requests - before).toBe(0);
      expect(JSON.stringify(report)).not.toContain(CPF);
      expect(JSON.stringify(report)).not.toContain('pw@');
    },
  );

  it('another scheme or port on the same host is another origin too', async () => {
    const server = await provider((_req, res) => redirect(res, `https://127.0.0.1:${new URL(other.url).port}${LIST}`));
    const report = await runVerify(parseVerifyArgs(['--base-url', server.url, '--token', TOKEN, '--pages', '1']));
    expect(report.checks[0]).toMatchObject(
      notFollowed(302, `https://127.0.0.1:${new URL(other.url).port}`, ANOTHER_ORIGIN),
    );
  });

  it('on the command line: exit 1, the row says where it went, and the token went only to the provider', async () => {
    const before = other.requests;
    const server = await provider((_req, res) => redirect(res, `${other.url}${LIST}`));
    const out: string[] = [];
    const code = await main(['--base-url', server.url, '--token', TOKEN], {
      out: (t) => out.push(t),
      err: (t) => out.push(t),
      env: {},
    });
    expect(code).toBe(1);
    const text = out.join('\n');
    // The row: the check, where it went (by origin), DRIFT; then its problem, under the table.
    const row = text.split('\n').find((line) => line.startsWith(CHECK.page1));
    expect(row).toContain(`redirect to ${other.url}, `);
    expect(row).toMatch(/ DRIFT$/);
    expect(text).toMatch(new RegExp(`\n +${CHECK.page1}: header location.*${ANOTHER_ORIGIN}`));
    expect(text).not.toContain(TOKEN);
    expect(other.requests - before).toBe(0);
    expect(
      server.received.filter((r) => r.authorization !== undefined).every((r) => r.authorization === `Bearer ${TOKEN}`),
    ).toBe(true);
  });
});

/** A small conformant service under /new; anything under /old answers `status` to the same place under /new. */
function movedService(status: number, put?: (res: ServerResponse) => void) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname.startsWith('/old/')) return redirect(res, `/new/${req.url!.slice('/old/'.length)}`, status);
    if (req.method === 'PUT')
      return put
        ? put(res)
        : res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'updated' }));
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return problem(res, 401);
    if (url.searchParams.get('limit') === '201') return problem(res, 422);
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ cursor: { next: null }, data: [] }));
  };
}

describe('redirects the client would follow', () => {
  it('same origin, on a read: followed, the final answer scored, each hop counted against the request budget', async () => {
    const server = await provider(movedService(308));
    const report = await runVerify(parseVerifyArgs(['--base-url', `${server.url}/old`, '--token', TOKEN]));
    expect(report.checks.slice(0, 4).map((c) => [c.check, c.verdict])).toEqual([
      [CHECK.page1, 'ok'],
      [CHECK.lastPage, 'held'],
      [CHECK.noToken, 'ok'],
      [CHECK.badLimit, 'ok'],
    ]);
    expect(server.received.map((r) => r.url.split('/')[1])).toEqual(['old', 'new', 'old', 'new', 'old', 'new']);
    expect(report.budgets.requests.used).toBe(6);
  });

  it('a hop past the request budget is not sent', async () => {
    const server = await provider(movedService(308));
    const report = await runVerify(
      parseVerifyArgs(['--base-url', `${server.url}/old`, '--token', TOKEN, '--max-requests', '1']),
    );
    expect(server.received).toHaveLength(1);
    expect(report.checks[0]).toMatchObject({ verdict: 'error', seen: expect.stringContaining('budget of 1 used') });
  });

  it('more than 5 hops on the same origin: the sixth answer is a DRIFT row, not followed', async () => {
    const server = await provider((req, res) => redirect(res, req.url!));
    const report = await runVerify(
      parseVerifyArgs(['--base-url', server.url, '--token', TOKEN, '--pages', '1', '--max-requests', '50']),
    );
    expect(report.checks[0]).toMatchObject({ check: CHECK.page1, ...notFollowed(302, server.origin, 'more than 5') });
    // Three checks (page, no token, limit=201), each the request and 5 hops.
    expect(server.received).toHaveLength(18);
  });

  it('a 3xx without a Location is a DRIFT row too, with no place named', async () => {
    const server = await provider((_req, res) =>
      res.writeHead(302, { 'content-type': 'text/html' }).end('<p>moved</p>'),
    );
    const report = await runVerify(parseVerifyArgs(['--base-url', server.url, '--token', TOKEN, '--pages', '1']));
    expect(report.checks[0]).toMatchObject(notFollowed(302, undefined, 'without a Location'));
  });
});

describe('a redirect of the write', () => {
  it('even to the same origin: a DRIFT row, and the PUT is sent once', async () => {
    const bodyFile = join(dir, 'update.json');
    await writeFile(bodyFile, JSON.stringify({ email: 'maria@example.com' }));
    const server = await provider(movedService(307, (res) => redirect(res, '/new/elsewhere', 307)));
    const report = await runVerify(
      parseVerifyArgs(['--base-url', `${server.url}/new`, '--token', TOKEN, ...writeFlags(CPF, bodyFile)]),
    );
    expect(report.checks.find((c) => c.check === CHECK.write)).toMatchObject(
      notFollowed(307, server.origin, 'a write'),
    );
    expect(server.received.filter((r) => r.method === 'PUT')).toHaveLength(1);
  });
});
