// verify's promises beyond the matrix: Retry-After honoured on reads, a write never sent twice,
// budgets enforced and printed, CPFs and tokens masked everywhere, usage errors named.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/verify/options.js';
import { runVerify } from '../../src/verify/run.js';
import { startDriftServer, TOKEN } from '../support/drift-server.js';
import { main, parseVerifyArgs, writeFlags } from './verify-cli.js';

const CPF = '52998224725';
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verify-behaviour-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A server whose handler the test writes; always closed. */
async function withServer(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void,
  work: (url: string) => Promise<void>,
): Promise<void> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => handler(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  try {
    await work(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

const page = { cursor: { next: null }, data: [] };
const problem = (status: number) => JSON.stringify({ status, title: 'x' });

describe('verify', () => {
  it('waits out Retry-After on a 429 and sends the read again, counting both requests', async () => {
    let listCalls = 0;
    await withServer(
      (req, res) => {
        const url = new URL(req.url!, 'http://x');
        if (!req.headers.authorization)
          return res
            .writeHead(401, { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer' })
            .end(problem(401));
        if (url.searchParams.get('limit') === '201')
          return res.writeHead(422, { 'content-type': 'application/problem+json' }).end(problem(422));
        listCalls += 1;
        if (listCalls === 1)
          return res
            .writeHead(429, { 'content-type': 'application/problem+json', 'retry-after': '1' })
            .end(problem(429));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page));
      },
      async (url) => {
        const waits: number[] = [];
        const report = await runVerify(parseVerifyArgs(['--base-url', url, '--token', TOKEN]), {
          wait: async (ms) => void waits.push(ms),
        });
        expect(waits).toEqual([1000]);
        expect(listCalls).toBe(2);
        expect(report.budgets.requests).toMatchObject({ used: 4, retriesAfterWait: 1 });
        expect(report.checks[0]).toMatchObject({ check: 'list-keys page 1', verdict: 'ok' });
      },
    );
  });

  it('never sends a write twice, even when told to retry; CPF and token stay out of table and report', async () => {
    const puts: string[] = [];
    const bodyFile = join(dir, 'update.json');
    await writeFile(bodyFile, JSON.stringify({ email: 'maria@example.com' }));
    await withServer(
      (req, res, body) => {
        if (req.method === 'PUT') {
          puts.push(body);
          return res
            .writeHead(503, { 'content-type': 'application/problem+json', 'retry-after': '0' })
            .end(JSON.stringify({ status: 503, detail: `upstream down for ${CPF}` }));
        }
        if (!req.headers.authorization)
          return res
            .writeHead(401, { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer' })
            .end(problem(401));
        if (new URL(req.url!, 'http://x').searchParams.get('limit') === '201')
          return res.writeHead(422, { 'content-type': 'application/problem+json' }).end(problem(422));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page));
      },
      async (url) => {
        const out: string[] = [];
        const report = join(dir, 'write-report.json');
        const code = await main(
          ['--base-url', url, '--token', TOKEN, ...writeFlags(CPF, bodyFile), '--report', report],
          { out: (t) => out.push(t), err: (t) => out.push(t), env: {} },
        );
        expect(puts).toHaveLength(1);
        // 503 is documented for the update, so it is not drift; but the write was refused, so it could
        // not be verified: never OK, and exit 2.
        expect(code).toBe(2);
        const text = `${out.join('\n')}\n${await readFile(report, 'utf8')}`;
        expect(text).toMatch(
          /update natural person \(write\)\s+200 application\/json UpdateResult\s+503 application\/problem\+json: refused \(upstream down for \S+\), the write could not be verified\s+ERROR/,
        );
        expect(text).toMatch(/^WRITE REFUSED/m);
        expect(text).not.toContain(CPF);
        expect(text).not.toContain(TOKEN);
      },
    );
  });

  it('does not wait past the time budget: a long Retry-After stops the walk as incomplete, not as drift', async () => {
    await withServer(
      (req, res) => {
        if (!req.headers.authorization)
          return res
            .writeHead(401, { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer' })
            .end(problem(401));
        if (new URL(req.url!, 'http://x').searchParams.get('limit') === '201')
          return res.writeHead(422, { 'content-type': 'application/problem+json' }).end(problem(422));
        res.writeHead(429, { 'content-type': 'application/problem+json', 'retry-after': '3600' }).end(problem(429));
      },
      async (url) => {
        const waits: number[] = [];
        const report = await runVerify(
          parseVerifyArgs(['--base-url', url, '--token', TOKEN, '--time-budget-ms', '60000']),
          {
            wait: async (ms) => void waits.push(ms),
          },
        );
        expect(waits).toEqual([]);
        expect(report.checks[0]).toMatchObject({ check: 'list-keys page 1', verdict: 'error', problems: [] });
        expect(report.checks[0]!.seen).toMatch(/429 .*Retry-After longer than the budget allows/);
        expect(report.drifted).toBe(false);
      },
    );
  });

  it('stops at the request budget and says so, with exit status 2', async () => {
    const server = await startDriftServer();
    try {
      const out: string[] = [];
      const code = await main(['--base-url', server.url, '--token', TOKEN, '--max-requests', '1'], {
        out: (t) => out.push(t),
        err: (t) => out.push(t),
        env: {},
      });
      expect(server.requests).toBe(1);
      expect(code).toBe(2);
      expect(out.join('\n')).toMatch(/request budget of 1 used up/);
      expect(out.join('\n')).toMatch(/requests: 1 of 1/);
    } finally {
      await server.close();
    }
  });

  it('takes the token from BAAS_TOKEN; a CPF in the base URL never reaches table or report', async () => {
    const server = await startDriftServer(undefined, `/${CPF}`);
    try {
      const out: string[] = [];
      const report = join(dir, 'env-report.json');
      const code = await main(['--base-url', server.url, '--report', report], {
        out: (t) => out.push(t),
        err: (t) => out.push(t),
        env: { BAAS_TOKEN: TOKEN },
      });
      expect(code).toBe(0);
      const text = `${out.join('\n')}\n${await readFile(report, 'utf8')}`;
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(CPF);
    } finally {
      await server.close();
    }
  });

  it.each([
    [[], /--base-url is required/],
    [['--base-url', 'ftp://x'], /--base-url must be an absolute http\(s\) URL/],
    [['--base-url', 'https://x', '--pages', '0'], /--pages must be a positive whole number/],
    [['--base-url', 'https://x', '--limit', '500'], /--limit must be a whole number from 1 to 200/],
    [['--base-url', 'https://x', '--allow-writes'], /--allow-writes needs --account, --document-number and --body/],
    [['--base-url', 'https://x', '--document-number', CPF], /only apply with --allow-writes/],
    [['--base-url', `http://user:${TOKEN}@x`], /must not carry credentials/],
  ])('rejects %j with a message naming the option', (argv, message) => {
    expect(() => parseVerifyArgs(argv as string[])).toThrow(UsageError);
    expect(() => parseVerifyArgs(argv as string[])).toThrow(message);
  });

  it.each([
    [['--base-url', 'https://x', '--document-number', CPF]],
    [['--base-url', `http://user:${TOKEN}@x`, '--token', TOKEN]],
  ])('prints usage with exit status 2 on a usage error, without echoing values (%#)', async (argv) => {
    const err: string[] = [];
    const code = await main(argv, { out: () => {}, err: (t) => err.push(t), env: {} });
    expect(code).toBe(2);
    expect(err[0]).toMatch(/^Usage: baas-pix-contract verify /);
    expect(err.at(-1)).toMatch(/^baas-pix-contract verify: /);
    expect(err.join('\n')).not.toContain(CPF);
    expect(err.join('\n')).not.toContain(TOKEN);
  });
});
