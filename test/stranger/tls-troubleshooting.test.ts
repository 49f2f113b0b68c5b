// The troubleshooting guide's "Client certificate not sent, refused or unusable" section quotes what a
// client with its default retries prints for the certificate mistakes of a first week in production:
// no certificate, a wrong passphrase, a key of another certificate, a path given where the PEM text goes,
// and no tls.ca for a provider's private authority. Each is made again here against a local HTTPS server
// that requires a client certificate, so a reworded message cannot leave the guide stale.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { type BaasClient, createBaasClient, type TlsOptions } from '../../src/index.js';
import { makeTestCerts, type TestCerts } from '../support/certs.js';
import { startHttpsServer, type TestHttpsServer } from '../support/https-server.js';

const GUIDE_URL = 'https://127.0.0.1:4443';
const quoted = (path: string) =>
  [...readFileSync(join(repoRoot, path), 'utf8').matchAll(/```text\n([\s\S]*?)```/g)].flatMap(([, block]) =>
    block!.trimEnd().split('\n'),
  );

let certs: TestCerts;
let server: TestHttpsServer;
const clients: BaasClient[] = [];

beforeAll(async () => {
  certs = await makeTestCerts();
  server = await startHttpsServer({ ...certs.server, ca: certs.ca, requireClientCert: true });
});
afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await server?.close();
  await certs?.remove();
});

/** What a default client (its attempts, only its waits shortened) prints for one `tls`, at the guide's URL. */
async function shown(tls: TlsOptions): Promise<string> {
  const baas = createBaasClient({
    baseUrl: server.url,
    token: 'sbx_unused_token',
    tls,
    retry: { baseDelayMs: 0, maxDelayMs: 0 },
  });
  clients.push(baas);
  const error = (await baas.listPixKeys().then(
    () => expect.unreachable('the call succeeded'),
    (thrown: unknown) => thrown,
  )) as Error;
  return `${error.name}: ${error.message}`.replaceAll(server.url.replace(/\/$/, ''), GUIDE_URL);
}

describe('the troubleshooting guide, client certificates', () => {
  it('quotes each certificate mistake as the client prints it now', async () => {
    const lines = quoted('docs/guides/troubleshooting.md');
    const mistakes: TlsOptions[] = [
      { ca: certs.ca },
      { cert: certs.client.cert, key: certs.encryptedKey, passphrase: 'not-the-passphrase', ca: certs.ca },
      { cert: certs.client.cert, key: certs.unknown.key, ca: certs.ca },
      { cert: join(certs.dir, 'client.crt'), key: join(certs.dir, 'client.key'), ca: certs.ca },
      { cert: certs.client.cert, key: certs.client.key },
    ];
    for (const tls of mistakes) expect(lines).toContain(await shown(tls));
  });
});
