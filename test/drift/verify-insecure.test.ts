// verify refuses plain http to a host that is not loopback, for --base-url and --token-url, before
// anything is sent (no token request either), by the client's own loopback rule; --allow-insecure-http
// lets it through and every output says so.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBaasClient } from '../../src/client/baas-client.js';
import { staticToken } from '../../src/cli/connection/credentials.js';
import { UsageError, type VerifyOptions } from '../../src/verify/options.js';
import { runVerify } from '../../src/verify/run.js';
import { fakeService, SERVICE_TOKEN } from './verify-service.js';
import { main, parseVerifyArgs } from './verify-cli.js';

const REMOTE = 'http://api.provider.example/gw';
const SECRET = 'client-secret-never-shown-77';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verify-insecure-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const usageError = (argv: string[], env: Record<string, string> = {}): UsageError => {
  try {
    parseVerifyArgs(argv, env);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error(`no usage error for ${argv.join(' ')}`);
};

/** main with a fetch that counts, and the global fetch (the token request's) spied on. */
async function run(argv: string[], env: Record<string, string> = {}) {
  const service = fakeService();
  const globalFetch = vi.spyOn(globalThis, 'fetch');
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    env,
    fetch: service.fetch as typeof globalThis.fetch,
  });
  return {
    code,
    out: out.join('\n'),
    err: err.join('\n'),
    sent: service.requests.length + globalFetch.mock.calls.length,
  };
}

describe('plain http to a host that is not loopback', () => {
  it('--base-url: a usage error naming the flag and the way out, exit 2, nothing sent', async () => {
    const error = usageError(['--base-url', REMOTE, '--token', SERVICE_TOKEN]);
    expect(error.message).toMatch(/^--base-url /);
    expect(error.message).toContain('--allow-insecure-http');
    expect(error.message).not.toContain('api.provider.example');
    const { code, err, sent } = await run(['--base-url', REMOTE, '--token', SERVICE_TOKEN]);
    expect(code).toBe(2);
    expect(err.split('\n').at(-1)).toMatch(/^baas-pix-contract verify: --base-url /);
    expect(err).not.toContain(SERVICE_TOKEN);
    expect(sent).toBe(0);
  });

  it('--token-url: a usage error naming the flag; no token request goes out', async () => {
    const argv = [
      '--base-url',
      'https://api.provider.example',
      '--token-url',
      'http://auth.provider.example/token',
      '--client-id',
      'cid',
    ];
    const env = { BAAS_CLIENT_SECRET: SECRET };
    const error = usageError(argv, env);
    expect(error.message).toMatch(/^--token-url /);
    expect(error.message).toContain('--allow-insecure-http');
    const { code, err, sent } = await run(argv, env);
    expect(code).toBe(2);
    expect(err).not.toContain(SECRET);
    expect(sent).toBe(0);
  });

  it('runVerify refuses options built by hand the same way, before the first request', async () => {
    const service = fakeService();
    const options: VerifyOptions = {
      baseUrl: REMOTE,
      credentials: staticToken(SERVICE_TOKEN),
      pages: 1,
      limit: 1,
      maxRequests: 5,
      timeBudgetMs: 10_000,
      requestTimeoutMs: 5_000,
      maxResponseBytes: 1024,
    };
    await expect(runVerify(options, { fetch: service.fetch })).rejects.toBeInstanceOf(UsageError);
    expect(service.requests).toHaveLength(0);
  });

  // The same rule as the client's (src/loopback.ts): each URL is refused by both or by neither.
  it.each([
    ['http://localhost:4010', false],
    ['http://LOCALHOST', false],
    ['http://127.0.0.1:9', false],
    ['http://127.200.3.4', false],
    ['http://[::1]:4010', false],
    ['https://api.provider.example', false],
    ['http://api.provider.example', true],
    ['http://10.0.0.7:8080', true],
    ['http://0.0.0.0', true],
    ['http://localhost.provider.example', true],
    ['http://127.0.0.1.nip.io', true],
    ['http://[::ffff:7f00:1]', true],
  ])('%s: refused %s, as the client refuses it', (baseUrl, refused) => {
    const byVerify = (() => {
      try {
        parseVerifyArgs(['--base-url', baseUrl, '--token', SERVICE_TOKEN]);
        return false;
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return true;
      }
    })();
    const byClient = (() => {
      try {
        createBaasClient({ baseUrl, token: SERVICE_TOKEN });
        return false;
      } catch {
        return true;
      }
    })();
    expect(byVerify).toBe(refused);
    expect(byClient).toBe(refused);
  });
});

describe('--allow-insecure-http', () => {
  it('lets --base-url through; stderr, the table and the report say so, naming the flag and never the token', async () => {
    const reportFile = join(dir, 'insecure.json');
    const { code, out, err, sent } = await run([
      '--base-url',
      REMOTE,
      '--token',
      SERVICE_TOKEN,
      '--allow-insecure-http',
      '--report',
      reportFile,
    ]);
    expect(sent).toBeGreaterThan(0);
    expect(code).toBe(0);
    expect(err).toMatch(/^warning: --allow-insecure-http: --base-url /);
    // The first line says where and with what; the table then starts with the warning.
    expect(out.split('\n')[1]).toMatch(/^warning: --allow-insecure-http: --base-url /);
    const report = JSON.parse(await readFile(reportFile, 'utf8')) as { warnings?: string[] };
    expect(report.warnings).toHaveLength(1);
    expect(report.warnings![0]).toContain('--base-url');
    expect(`${out}${err}`).not.toContain(SERVICE_TOKEN);
  });

  it('lets --token-url through too, and names both flags', () => {
    const options = parseVerifyArgs(
      [
        '--base-url',
        REMOTE,
        '--token-url',
        'http://auth.provider.example/token',
        '--client-id',
        'cid',
        '--allow-insecure-http',
      ],
      { BAAS_CLIENT_SECRET: SECRET },
    );
    expect(options.insecureHttp).toEqual(['--base-url', '--token-url']);
  });

  it('says nothing when every URL is https or loopback', async () => {
    expect(
      'insecureHttp' in
        parseVerifyArgs(['--base-url', 'http://127.0.0.1:9', '--token', SERVICE_TOKEN, '--allow-insecure-http']),
    ).toBe(false);
    const { err, out } = await run([
      '--base-url',
      'http://127.0.0.1:9',
      '--token',
      SERVICE_TOKEN,
      '--allow-insecure-http',
    ]);
    expect(err).toBe('');
    expect(out).not.toContain('warning');
  });
});
