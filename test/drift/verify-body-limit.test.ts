// verify reads at most --max-response-bytes of any answer, counted while the body streams: a service
// that never stops sending ends in an ERROR row naming the limit, and verify closes the connection.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { runVerify } from '../../src/verify/run.js';
import { TOKEN } from '../support/drift-server.js';
import { startLocalServer, type LocalServer } from './verify-local-server.js';
import { main, parseVerifyArgs } from './verify-cli.js';

const LIMIT = 256 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x20);
const servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

interface Endless {
  server: LocalServer;
  /** Resolves when the connection of the endless answer closes, with the bytes written until then. */
  closed: Promise<number>;
}

/** A service whose authorized list-keys answer is a JSON body that never ends; the rest conforms. */
async function endlessService(): Promise<Endless> {
  let resolveClosed: (bytes: number) => void = () => undefined;
  const closed = new Promise<number>((resolve) => (resolveClosed = resolve));
  const server = await startLocalServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url!, 'http://x');
    if (req.headers.authorization !== `Bearer ${TOKEN}`)
      return res
        .writeHead(401, { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer' })
        .end('{"status":401,"title":"x"}');
    if (url.searchParams.get('limit') === '201')
      return res.writeHead(422, { 'content-type': 'application/problem+json' }).end('{"status":422,"title":"x"}');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"data":[');
    let written = 0;
    let open = true;
    res.on('close', () => {
      open = false;
      resolveClosed(written);
    });
    // Writes as fast as the reader takes it, for as long as the connection lives.
    const pump = () => {
      while (open && res.write(CHUNK)) written += CHUNK.length;
      if (open) {
        written += CHUNK.length;
        res.once('drain', pump);
      }
    };
    pump();
  });
  servers.push(server);
  return { server, closed };
}

describe('--max-response-bytes', () => {
  it('an endless answer: an ERROR row naming the limit, the connection closed, the other checks still run', async () => {
    const { server, closed } = await endlessService();
    const report = await runVerify(
      parseVerifyArgs(['--base-url', server.url, '--token', TOKEN, '--max-response-bytes', String(LIMIT)]),
    );
    expect(report.checks[0]).toEqual({
      check: 'list-keys page 1',
      expected: '200 application/json PixKeyList',
      seen: `the answer (200) is larger than --max-response-bytes (256 KiB); reading stopped there`,
      verdict: 'error',
      problems: [],
    });
    expect(report.checks.find((c) => c.check === 'list-keys without a token')?.verdict).toBe('ok');
    // The server sees its answer's connection close: verify stopped reading and let it go.
    const written = await closed;
    expect(written).toBeGreaterThan(LIMIT);
  });

  it('on the command line: INCOMPLETE with exit 2, the row in the table', async () => {
    const { server, closed } = await endlessService();
    const out: string[] = [];
    const code = await main(['--base-url', server.url, '--token', TOKEN, '--max-response-bytes', String(LIMIT)], {
      out: (t) => out.push(t),
      err: (t) => out.push(t),
      env: {},
    });
    expect(code).toBe(2);
    expect(out.join('\n')).toMatch(/list-keys page 1 .*larger than --max-response-bytes \(256 KiB\).* ERROR/);
    expect(out.join('\n')).toMatch(/^INCOMPLETE/m);
    await closed;
  });

  it('a declared Content-Length over the limit stops before the body is read', async () => {
    const server = await startLocalServer((req, res) => {
      if (req.headers.authorization !== `Bearer ${TOKEN}`)
        return res
          .writeHead(401, { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer' })
          .end('{"status":401,"title":"x"}');
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(LIMIT + 1) });
      res.write('{');
    });
    servers.push(server);
    const report = await runVerify(
      parseVerifyArgs([
        '--base-url',
        server.url,
        '--token',
        TOKEN,
        '--max-response-bytes',
        String(LIMIT),
        '--pages',
        '1',
      ]),
    );
    expect(report.checks[0]).toMatchObject({
      verdict: 'error',
      seen: expect.stringContaining('--max-response-bytes (256 KiB)'),
    });
  });

  it('an answer within the limit is read and scored as before', async () => {
    const server = await startLocalServer((req, res) => {
      if (req.headers.authorization !== `Bearer ${TOKEN}`)
        return res
          .writeHead(401, { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer' })
          .end('{"status":401,"title":"x"}');
      const body = JSON.stringify({ cursor: { next: null }, data: [] });
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    servers.push(server);
    // Exactly the body's size: the limit is the largest answer read, not one past it.
    const size = Buffer.byteLength(JSON.stringify({ cursor: { next: null }, data: [] }));
    const report = await runVerify(
      parseVerifyArgs([
        '--base-url',
        server.url,
        '--token',
        TOKEN,
        '--max-response-bytes',
        String(size),
        '--pages',
        '1',
      ]),
    );
    expect(report.checks[0]).toMatchObject({ check: 'list-keys page 1', verdict: 'ok' });
  });

  it('the option: 10 MiB by default, a positive whole number of bytes, said in USAGE', async () => {
    expect(parseVerifyArgs(['--base-url', 'https://x', '--token', TOKEN]).maxResponseBytes).toBe(10 * 1024 * 1024);
    expect(
      parseVerifyArgs(['--base-url', 'https://x', '--token', TOKEN, '--max-response-bytes', '1']).maxResponseBytes,
    ).toBe(1);
    for (const value of ['0', '-1', '1.5', '1e6', '', '99999999999999999999']) {
      expect(() =>
        parseVerifyArgs(['--base-url', 'https://x', '--token', TOKEN, `--max-response-bytes=${value}`]),
      ).toThrow(/^--max-response-bytes /);
    }
    const { commandHelp } = await import('../../src/cli/help.js');
    const { verify } = await import('../../src/cli/verify.js');
    const USAGE = commandHelp(verify);
    expect(USAGE).toContain('--max-response-bytes N');
    expect(USAGE).toContain(String(10 * 1024 * 1024));
    expect(USAGE).toContain('--allow-insecure-http');
  });
});
