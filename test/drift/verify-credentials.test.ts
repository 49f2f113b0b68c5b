// verify with credentials as the client takes them: OAuth2 client credentials against a local token
// endpoint, and a client certificate against a local service that requires one. Secrets (client
// secret, issued token, key passphrase) never appear in the table, the report or an error.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCerts, type TestCerts } from '../support/certs.js';
import { startDriftServer, TOKEN } from '../support/drift-server.js';
import { main } from './verify-cli.js';

const CLIENT_ID = 'verify-client';
const CLIENT_SECRET = 'client-secret-do-not-print-4711';

interface TokenEndpoint {
  url: string;
  /** What each token request carried: how the client authenticated, and the form fields. */
  seen: { authorization: string | undefined; form: URLSearchParams }[];
  close(): Promise<void>;
}

/** A token endpoint on 127.0.0.1 that issues the drift server's token to the right client only. */
async function tokenEndpoint(): Promise<TokenEndpoint> {
  const seen: TokenEndpoint['seen'] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      seen.push({ authorization: req.headers.authorization, form });
      const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
      const ok =
        req.headers.authorization === basic ||
        (form.get('client_id') === CLIENT_ID && form.get('client_secret') === CLIENT_SECRET);
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          ok ? { access_token: TOKEN, token_type: 'Bearer', expires_in: 300 } : { error: 'invalid_client' },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/oauth/token`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let dir: string;
let certs: TestCerts;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verify-credentials-'));
  certs = await makeTestCerts();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await certs?.remove();
});

async function run(args: string[], env: Record<string, string>, serverTls?: { cert: string; key: string; ca: string }) {
  const server = await startDriftServer(() => {}, '/gw', serverTls);
  const report = join(dir, `report-${Math.random().toString(36).slice(2)}.json`);
  const lines: string[] = [];
  try {
    const code = await main(['--base-url', server.url, '--pages', '2', '--report', report, ...args], {
      out: (t) => lines.push(t),
      err: (t) => lines.push(t),
      env,
    });
    const json = await readFile(report, 'utf8').catch(() => '');
    return { code, output: lines.join('\n'), json };
  } finally {
    await server.close();
  }
}

describe('verify with client credentials', () => {
  it('gets a token with client_secret_basic (secret from BAAS_CLIENT_SECRET) and finds no drift; no secret or token in the output', async () => {
    const endpoint = await tokenEndpoint();
    try {
      const { code, output, json } = await run(
        ['--token-url', endpoint.url, '--client-id', CLIENT_ID, '--scope', 'pix.read keys.list'],
        { BAAS_CLIENT_SECRET: CLIENT_SECRET },
      );
      expect(output).toMatch(/no drift/);
      expect(code).toBe(0);
      expect(endpoint.seen.length).toBeGreaterThanOrEqual(1);
      expect(endpoint.seen[0]!.form.get('grant_type')).toBe('client_credentials');
      expect(endpoint.seen[0]!.form.get('scope')).toBe('pix.read keys.list');
      for (const text of [output, json]) {
        expect(text).not.toContain(CLIENT_SECRET);
        expect(text).not.toContain(TOKEN);
      }
    } finally {
      await endpoint.close();
    }
  });

  it('sends the secret in the form with --auth-method client_secret_post', async () => {
    const endpoint = await tokenEndpoint();
    try {
      const { code } = await run(
        ['--token-url', endpoint.url, '--client-id', CLIENT_ID, '--auth-method', 'client_secret_post'],
        {
          BAAS_CLIENT_SECRET: CLIENT_SECRET,
        },
      );
      expect(code).toBe(0);
      expect(endpoint.seen[0]!.authorization).toBeUndefined();
      expect(endpoint.seen[0]!.form.get('client_id')).toBe(CLIENT_ID);
    } finally {
      await endpoint.close();
    }
  });

  it('a refused secret is an incomplete run (exit 2), and the secret passed on the command line is still masked', async () => {
    const endpoint = await tokenEndpoint();
    try {
      const wrong = 'wrong-secret-never-shown-0815';
      const { code, output, json } = await run(
        ['--token-url', endpoint.url, '--client-id', CLIENT_ID, '--client-secret', wrong],
        {},
      );
      expect(code).toBe(2);
      expect(output).toMatch(/token request .* failed|invalid_client/);
      expect(output + json).not.toContain(wrong);
    } finally {
      await endpoint.close();
    }
  });

  it('usage errors name the option, never a value', async () => {
    const cases: [string[], Record<string, string>, RegExp][] = [
      [
        ['--token', 'abc-token-0123456789', '--token-url', 'http://127.0.0.1:9/t', '--client-id', 'x'],
        { BAAS_CLIENT_SECRET: CLIENT_SECRET },
        /either --token or client credentials/,
      ],
      [['--token-url', 'http://127.0.0.1:9/t', '--client-id', 'x'], {}, /BAAS_CLIENT_SECRET/],
      [['--client-id', 'x'], { BAAS_CLIENT_SECRET: CLIENT_SECRET }, /missing: --token-url URL$/],
      [
        ['--token-url', 'http://127.0.0.1:9/t', '--client-id', 'x', '--auth-method', 'jwt'],
        { BAAS_CLIENT_SECRET: CLIENT_SECRET },
        /--auth-method must be client_secret_basic or client_secret_post/,
      ],
      [['--token', 'abc-token-0123456789', '--cert', '/nonexistent/client.crt'], {}, /--key is required with --cert/],
      [
        ['--token', 'abc-token-0123456789', '--cert', '/nonexistent/client.crt', '--key', '/nonexistent/client.key'],
        {},
        /--cert: cannot read \/nonexistent\/client.crt \(ENOENT\)/,
      ],
      [
        // Before any file is read: over plain http the certificate would never be presented.
        [
          '--token-url',
          'http://127.0.0.1:9/t',
          '--client-id',
          'x',
          '--cert',
          '/nonexistent/client.crt',
          '--key',
          '/nonexistent/client.key',
        ],
        { BAAS_CLIENT_SECRET: CLIENT_SECRET },
        /^baas-pix-contract verify: --cert and --key are never used with --token-url on plain http: .*give --token-url as https:\/\/, or leave --cert and --key out$/m,
      ],
    ];
    for (const [args, env, message] of cases) {
      const lines: string[] = [];
      const code = await main(['--base-url', 'https://127.0.0.1:9', ...args], {
        out: (t) => lines.push(t),
        err: (t) => lines.push(t),
        env,
      });
      expect(code).toBe(2);
      expect(lines.join('\n')).toMatch(message);
      expect(lines.join('\n')).not.toContain(CLIENT_SECRET);
    }
  });
});

describe('verify with a client certificate', () => {
  const serverTls = () => ({ cert: certs.server.cert, key: certs.server.key, ca: certs.ca });

  it('--cert/--key/--ca: reaches a service that requires the certificate, no drift', async () => {
    const { code, output } = await run(
      [
        '--token',
        TOKEN,
        '--cert',
        join(certs.dir, 'client.crt'),
        '--key',
        join(certs.dir, 'client.key'),
        '--ca',
        join(certs.dir, 'test-ca.crt'),
      ],
      {},
      serverTls(),
    );
    expect(output).toMatch(/no drift/);
    expect(code).toBe(0);
  });

  it('--pfx with its passphrase from BAAS_TLS_PASSPHRASE, which never shows', async () => {
    const { code, output, json } = await run(
      ['--token', TOKEN, '--pfx', join(certs.dir, 'client.p12'), '--ca', join(certs.dir, 'test-ca.crt')],
      { BAAS_TLS_PASSPHRASE: certs.passphrase },
      serverTls(),
    );
    expect(code).toBe(0);
    expect(output + json).not.toContain(certs.passphrase);
  });

  it('without the certificate the service refuses the connection: exit 2, nothing flagged as drift', async () => {
    const { code, json } = await run(['--token', TOKEN, '--ca', join(certs.dir, 'test-ca.crt')], {}, serverTls());
    expect(code).toBe(2);
    expect(JSON.parse(json).drifted).toBe(false);
  });

  it('a wrong passphrase is a usage-like failure naming the passphrase, not its value', async () => {
    const wrong = 'not the passphrase at all';
    const { code, output } = await run(
      [
        '--token',
        TOKEN,
        '--key',
        join(certs.dir, 'client-encrypted.key'),
        '--cert',
        join(certs.dir, 'client.crt'),
        '--ca',
        join(certs.dir, 'test-ca.crt'),
      ],
      { BAAS_TLS_PASSPHRASE: wrong },
      serverTls(),
    );
    expect(code).toBe(2);
    expect(output).toMatch(/passphrase/);
    expect(output).not.toContain(wrong);
  });
});
