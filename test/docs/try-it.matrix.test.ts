// The docs you can try, in a real headless Chromium, against the command line as a user runs it:
// - `sandbox` serves the page at /docs: each operation shows its four code samples, and Send on each
//   shows the sandbox's answer (200 with keys for the list, 204 for the update, 422 for a body the
//   contract refuses);
// - `docs --serve` against that sandbox with client credentials, and against the sandbox behind a
//   client certificate (openssl's certificates, an HTTPS front that requires one): Send goes through
//   the local process, and nothing the page sends or receives holds a token or a secret;
// - `docs --serve` refuses a request without the served secret, with another Host (DNS rebinding) or
//   from another origin, a page of another origin in the same browser included; and writes without
//   --allow-writes.
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_FLAGS, ensureChromium } from '../../scripts/lib/chromium.mjs';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { ensureTool } from '../../scripts/lib/tools.mjs';
import { makeTestCerts, type TestCerts } from '../support/certs.js';
import { spec } from '../support/spec.js';
import { type CliProcess, startCli } from './cli-process.js';

// Playwright is a tool of the tool cache, not a devDependency: its objects are untyped here.
type Browser = any;
type Page = any;
let chromium: { launch(options: object): Promise<Browser> };
let browser: Browser | undefined;
const ARTIFACTS = join(repoRoot, '.artifacts');
const started: { stop(): Promise<void> }[] = [];

const OPERATIONS = {
  updateNaturalPerson: {
    hash: '#/customers/updatenaturalperson',
    path: '/v2/api/baas-onboarding/account/natural-person',
    method: 'put',
  },
  listPixKeys: { hash: '#/pixkeys/listpixkeys', path: '/v2/api/pix/keys/list-keys', method: 'get' },
} as const;
type OperationId = keyof typeof OPERATIONS;
const samplesOf = (id: OperationId) =>
  spec.paths[OPERATIONS[id].path]![OPERATIONS[id].method]['x-codeSamples'] as { label: string; source: string }[];
// A body the contract refuses: a phone number that is not one.
const REFUSED_BODY = '{ "phoneNumber": "not a phone" }';

interface Sandbox {
  process: CliProcess;
  url: string;
  token: string;
  clientId: string;
  clientSecret: string;
  account: string;
  documentNumber: string;
}

async function startSandbox(): Promise<Sandbox> {
  const cli = startCli(['sandbox', '--port', '0']);
  started.push(cli);
  const [, url] = await cli.waitFor(/^Sandbox listening on (http:\/\/127\.0\.0\.1:[0-9]+)/);
  const [, token] = await cli.waitFor(/^client 1: Authorization: Bearer (\S+)/);
  const [, clientId, clientSecret] = await cli.waitFor(/^ {2}client_id=(\S+) {2}client_secret=(\S+)/);
  const [, account, documentNumber] = await cli.waitFor(/^ {2}Account=(\S+) {2}DocumentNumber=(\S+)/);
  return {
    process: cli,
    url: url!,
    token: token!,
    clientId: clientId!,
    clientSecret: clientSecret!,
    account: account!,
    documentNumber: documentNumber!,
  };
}

async function startServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ cli: CliProcess; url: string }> {
  const cli = startCli(['docs', '--serve', ...args], env);
  started.push(cli);
  const [, url] = await cli.waitFor(/^ {2}(http:\/\/127\.0\.0\.1:[0-9]+\/[A-Za-z0-9_-]+\/)$/);
  return { cli, url: url! };
}

/** Everything the page sent and received, as text: URLs, header fields, bodies. */
interface Traffic {
  text: string[];
  /** The names of the header fields of every request the page sent. */
  sentFields: string[];
}

async function openPage(url: string, traffic?: Traffic): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, serviceWorkers: 'block' });
  if (traffic) {
    context.on('request', async (request: any) => {
      const headers = await request.allHeaders();
      traffic.sentFields.push(...Object.keys(headers));
      traffic.text.push(request.url(), JSON.stringify(headers), request.postData() ?? '');
    });
    context.on('response', async (response: any) => {
      traffic.text.push(JSON.stringify(await response.allHeaders()));
      traffic.text.push(await response.text().catch(() => ''));
    });
  }
  const tab = await context.newPage();
  const errors: string[] = [];
  tab.on('pageerror', (error: Error) => errors.push(error.message));
  // Rendering the page takes the Redocly CLI a few seconds on its first request.
  await tab.goto(url, { timeout: 120_000 });
  await tab.locator('h1').first().waitFor({ timeout: 60_000 });
  expect(errors).toEqual([]);
  return tab;
}

interface Shown {
  status: string;
  headers: string;
  body: string;
}

async function send(
  tab: Page,
  id: OperationId,
  { fields = {}, more = '', body }: { fields?: Record<string, string>; more?: string; body?: string } = {},
): Promise<Shown> {
  await tab.goto(new URL(OPERATIONS[id].hash, tab.url()).href);
  const toggle = tab.getByRole('button', { name: 'Try it', exact: true });
  if (await toggle.isVisible()) await toggle.click();
  const panel = tab.getByRole('complementary', { name: 'Try it' });
  // The panel follows the operation open in the page.
  const form = panel.locator(`form[data-operation="${id}"]`);
  await form.waitFor({ state: 'visible', timeout: 10_000 });
  for (const [name, value] of Object.entries(fields)) await form.locator(`input[name="${name}"]`).fill(value);
  await form.locator('textarea[name="more-headers"]').fill(more);
  if (body !== undefined) await form.locator('textarea[name="body"]').fill(body);
  await form.getByRole('button', { name: 'Send' }).click();
  await panel.locator(`form[data-operation="${id}"][data-answered]`).waitFor({ timeout: 60_000 });
  const result = {
    status: (await form.getByLabel('Status').textContent()) ?? '',
    headers: (await form.getByLabel('Response headers').textContent()) ?? '',
    body: (await form.getByLabel('Response body').textContent()) ?? '',
  };
  await form.evaluate((element: HTMLElement) => delete element.dataset.answered);
  return result;
}

beforeAll(async () => {
  const modules = await ensureTool('playwright-core');
  const entry = createRequire(join(modules, 'package.json')).resolve('playwright-core');
  ({ chromium } = (await import(pathToFileURL(entry).href)) as { chromium: typeof chromium });
  browser = await chromium.launch({ executablePath: await ensureChromium(), args: CHROMIUM_FLAGS });
}, 10 * 60_000);

afterAll(async () => {
  await browser?.close();
  await Promise.allSettled(started.map((server) => server.stop()));
});

describe("the sandbox's /docs", () => {
  let sandbox: Sandbox;
  let tab: Page;
  beforeAll(async () => {
    sandbox = await startSandbox();
    await sandbox.process.waitFor(/^Docs with a try-it panel .*: http:\/\/127\.0\.0\.1:[0-9]+\/docs$/);
    tab = await openPage(`${sandbox.url}/docs`);
  }, 240_000);

  it.each(Object.keys(OPERATIONS) as OperationId[])('%s shows its four code samples', async (id) => {
    await tab.goto(new URL(OPERATIONS[id].hash, tab.url()).href);
    const samples = samplesOf(id);
    // The language shown is the last one chosen, on any operation: Redoc remembers it.
    let current: string | undefined;
    for (const sample of samples)
      if (await tab.getByText(sample.label, { exact: true }).first().isVisible()) current = sample.label;
    expect(current, 'a sample is shown').toBeDefined();
    for (const sample of samples) {
      // Redoc's language menu: its button names the language shown; the menu lists every one.
      await tab.getByText(current!, { exact: true }).first().click();
      await tab.getByText(sample.label, { exact: true }).last().click();
      current = sample.label;
      const text = await tab.locator('body').innerText();
      const lines = sample.source
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      expect(
        lines.filter((line) => !text.includes(line)),
        sample.label,
      ).toEqual([]);
    }
  });

  it("keeps the contract's x-assumption choices visible", async () => {
    await tab.goto(new URL('#', tab.url()).href);
    expect(await tab.locator('body').innerText()).toContain('Every assumption');
  });

  it('Send on the list shows 200 and a page of keys', async () => {
    const shown = await send(tab, 'listPixKeys');
    expect(shown.status).toMatch(/^200\b/);
    const page = JSON.parse(shown.body);
    expect(Object.keys(page).sort()).toEqual(['cursor', 'data']);
    expect(page.data.length).toBeGreaterThan(0);
    expect(shown.headers).toMatch(/^x-request-id: /m);
  });

  it("Send on the update (the sandbox's first account filled in) shows 200, and 204 when Prefer asks", async () => {
    expect(JSON.parse((await send(tab, 'updateNaturalPerson')).body)).toEqual({ version: '1.0.0', status: 'SUCCESS' });
    const shown = await send(tab, 'updateNaturalPerson', { more: 'Prefer: code=204' });
    expect(shown.status).toMatch(/^204\b/);
    expect(shown.body).toBe('(no body)');
  });

  it('Send with a body the contract refuses shows its 422 and the field at fault', async () => {
    const shown = await send(tab, 'updateNaturalPerson', { body: REFUSED_BODY });
    expect(shown.status).toMatch(/^422\b/);
    expect(JSON.parse(shown.body).violations.map((v: { property: string }) => v.property)).toContain('/phoneNumber');
    await tab.screenshot({ path: join(ARTIFACTS, 'try-it-sandbox-422.png') });
  });
});

describe('docs --serve against a sandbox, with client credentials', () => {
  let sandbox: Sandbox;
  let served: { cli: CliProcess; url: string };
  let tab: Page;
  const traffic: Traffic = { text: [], sentFields: [] };
  beforeAll(async () => {
    sandbox = await startSandbox();
    served = await startServe(
      [
        '--base-url',
        sandbox.url,
        '--token-url',
        `${sandbox.url}/oauth/token`,
        '--client-id',
        sandbox.clientId,
        '--allow-writes',
      ],
      { BAAS_CLIENT_SECRET: sandbox.clientSecret },
    );
    tab = await openPage(served.url, traffic);
  }, 240_000);
  const customer = () => ({ Account: sandbox.account, DocumentNumber: sandbox.documentNumber });

  it('Send on the list shows 200 with keys, through the local process', async () => {
    const shown = await send(tab, 'listPixKeys');
    expect(shown.status).toMatch(/^200\b/);
    expect(Object.keys(JSON.parse(shown.body)).sort()).toEqual(['cursor', 'data']);
    expect(served.cli.lines).toContainEqual(expect.stringMatching(/^docs --serve: POST \/call HTTP 200 /));
  });

  it('Send on the update shows 204, and 422 for a body the contract refuses', async () => {
    expect((await send(tab, 'updateNaturalPerson', { fields: customer(), more: 'Prefer: code=204' })).status).toMatch(
      /^204\b/,
    );
    const refused = await send(tab, 'updateNaturalPerson', { fields: customer(), body: REFUSED_BODY });
    expect(refused.status).toMatch(/^422\b/);
    expect(refused.body).toContain('/phoneNumber');
  });

  it("the page's traffic holds no token, no client secret; the token was fetched by the process", async () => {
    const all = traffic.text.join('\n');
    expect(all.includes('/call'), 'the calls are in it').toBe(true);
    // As booleans: the traffic (the 2.6 MB page among it) is too long to print.
    for (const secret of [sandbox.clientSecret, sandbox.token]) expect(all.includes(secret), secret).toBe(false);
    expect(/sbx_at_[0-9a-f]/.test(all), 'an issued token').toBe(false);
    expect(traffic.sentFields.map((name) => name.toLowerCase())).not.toContain('authorization');
    // The sandbox's request log shows the process fetched a token with the client credentials.
    expect(sandbox.process.lines).toContainEqual(expect.stringMatching(/^POST \/oauth\/token HTTP 200/));
  });

  it('the log shows no secret of the served address, no token and no CPF', () => {
    const secret = new URL(served.url).pathname.split('/')[1]!;
    const log = served.cli.lines.filter((line) => line.startsWith('docs --serve:')).join('\n');
    expect(log).not.toBe('');
    expect(log).not.toContain(secret);
    expect(log).not.toContain(sandbox.clientSecret);
    expect(log).not.toContain(sandbox.documentNumber);
  });

  describe('refuses what another page or another name could send', () => {
    const raw = (path: string, headers: Record<string, string>, method = 'GET', body?: string) => {
      const url = new URL(served.url);
      return new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: url.hostname, port: url.port, path, method, headers }, (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        });
        req.on('error', reject);
        req.end(body);
      });
    };
    const host = () => new URL(served.url).host;
    const path = () => new URL(served.url).pathname;
    const call = JSON.stringify({ operationId: 'listPixKeys', query: {}, headers: {} });

    it('answers the right request (the control case)', async () => {
      expect((await raw(path(), { host: host() })).status).toBe(200);
      const ok = await raw(
        `${path()}call`,
        { host: host(), origin: `http://${host()}`, 'content-type': 'application/json' },
        'POST',
        call,
      );
      expect(ok.status, ok.body).toBe(200);
    });

    it('without the served secret: 404', async () => {
      expect((await raw('/', { host: host() })).status).toBe(404);
      expect(
        (
          await raw(
            '/call',
            { host: host(), origin: `http://${host()}`, 'content-type': 'application/json' },
            'POST',
            call,
          )
        ).status,
      ).toBe(404);
      // One character of the secret changed.
      const wrong = path().replace(/[A-Za-z0-9]/, (c) => (c === 'a' ? 'b' : 'a'));
      expect((await raw(wrong, { host: host() })).status).toBe(404);
    });

    it('with a Host that is not the bound address (DNS rebinding): 403', async () => {
      for (const name of [`rebind.example:${new URL(served.url).port}`, `localhost:${new URL(served.url).port}`])
        expect((await raw(path(), { host: name })).status, name).toBe(403);
    });

    it('from another origin, or a call with no Origin: 403', async () => {
      const headers = { host: host(), 'content-type': 'application/json' };
      expect((await raw(`${path()}call`, { ...headers, origin: 'http://127.0.0.1:1' }, 'POST', call)).status).toBe(403);
      expect((await raw(`${path()}call`, headers, 'POST', call)).status).toBe(403);
      expect((await raw(path(), { host: host(), 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    });

    it('a page of another origin in the same browser gets nothing through', async () => {
      const before = sandbox.process.lines.length;
      const other = createHttpServer((_, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!DOCTYPE html><title>other</title>');
      });
      await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
      try {
        const page = await browser.newPage();
        await page.goto(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`);
        const outcome = await page.evaluate(
          async ({ target, body }: { target: string; body: string }) => {
            const tries: string[] = [];
            // A simple request needs no preflight, so it does reach the server: which must refuse it.
            await fetch(`${target}call`, {
              method: 'POST',
              mode: 'no-cors',
              body,
              headers: { 'content-type': 'text/plain' },
            }).then(
              () => tries.push('no-cors sent'),
              (error: Error) => tries.push(`no-cors failed: ${error.message}`),
            );
            await fetch(`${target}call`, {
              method: 'POST',
              body,
              headers: { 'content-type': 'application/json' },
            }).then(
              (response) => tries.push(`cors read ${response.status}`),
              () => tries.push('cors refused'),
            );
            return tries;
          },
          { target: served.url, body: call },
        );
        await page.close();
        expect(outcome).toContain('cors refused');
        // No call reached the sandbox from that page.
        expect(sandbox.process.lines.slice(before).filter((line) => line.includes('list-keys'))).toEqual([]);
        expect(served.cli.lines).toContainEqual(expect.stringMatching(/^docs --serve: POST \/call HTTP 403 /));
      } finally {
        await new Promise<void>((resolve) => other.close(() => resolve()));
      }
    });
  });
});

describe('docs --serve against a sandbox behind a client certificate (reads only)', () => {
  let sandbox: Sandbox;
  let certs: TestCerts;
  let tab: Page;
  const seen: unknown[] = [];
  const traffic: Traffic = { text: [], sentFields: [] };
  beforeAll(async () => {
    sandbox = await startSandbox();
    certs = await makeTestCerts();
    // An HTTPS front that requires a client certificate of the test CA, forwarding to the sandbox.
    const target = new URL(sandbox.url);
    const front = createHttpsServer(
      { cert: certs.server.cert, key: certs.server.key, ca: certs.ca, requestCert: true, rejectUnauthorized: true },
      (req, res) => {
        seen.push((req.socket as import('node:tls').TLSSocket).getPeerCertificate()?.subject?.CN);
        const upstream = httpRequest(
          {
            host: target.hostname,
            port: target.port,
            path: req.url,
            method: req.method,
            headers: { ...req.headers, host: target.host },
          },
          (answer) => {
            res.writeHead(answer.statusCode!, answer.headers);
            answer.pipe(res);
          },
        );
        req.pipe(upstream);
      },
    );
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    started.push({
      stop: () =>
        new Promise<void>((resolve) => {
          front.closeAllConnections();
          front.close(() => resolve());
        }),
    });
    started.push({ stop: () => certs.remove() });
    const file = (name: string) => join(certs.dir, name);
    const served = await startServe(
      [
        '--base-url',
        `https://127.0.0.1:${(front.address() as AddressInfo).port}`,
        '--cert',
        file('client.crt'),
        '--key',
        file('client.key'),
        '--ca',
        file('test-ca.crt'),
      ],
      { BAAS_TOKEN: sandbox.token },
    );
    tab = await openPage(served.url, traffic);
  }, 240_000);

  it('Send on the list shows 200 with keys, the certificate presented by the process', async () => {
    const shown = await send(tab, 'listPixKeys');
    expect(shown.status).toMatch(/^200\b/);
    expect(JSON.parse(shown.body).data.length).toBeGreaterThan(0);
    expect(seen).toContain('client');
  });

  it('Send on the update is refused by docs --serve without --allow-writes, and nothing reaches the sandbox', async () => {
    const before = sandbox.process.lines.length;
    const shown = await send(tab, 'updateNaturalPerson', {
      fields: { Account: sandbox.account, DocumentNumber: sandbox.documentNumber },
    });
    expect(shown.status).toMatch(/^403\b/);
    expect(shown.body).toContain('--allow-writes');
    expect(sandbox.process.lines.slice(before).filter((line) => line.includes('natural-person'))).toEqual([]);
  });

  it("the page's traffic holds neither the token nor the key", async () => {
    const all = traffic.text.join('\n');
    expect(all.includes('/call'), 'the calls are in it').toBe(true);
    expect(all.includes(sandbox.token), 'the token').toBe(false);
    expect(all.includes(certs.client.key.split('\n')[1]!), 'the private key').toBe(false);
    expect(traffic.sentFields.map((name) => name.toLowerCase())).not.toContain('authorization');
  });
});
