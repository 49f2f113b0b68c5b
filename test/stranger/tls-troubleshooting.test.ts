// The troubleshooting guide's "Client certificate not sent, refused or unusable" section quotes what a
// client with its default retries prints for the certificate mistakes of a first week in production:
// no certificate, a wrong passphrase, a key of another certificate, an expired certificate, and no tls.ca
// for a provider's private authority (each after 1 attempt: another one cannot cure it), and what
// createBaasClient throws at once for a path given where the PEM text goes, cert and key swapped, and a
// pfx read as text. Each is made again here against a local HTTPS server that requires a client
// certificate, so a reworded message cannot leave the guide stale (the English guide and the Portuguese
// one quote the same lines).
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

/**
 * What a default client (its attempts, only its waits shortened) prints for one `tls`, at the guide's URL:
 * createBaasClient's refusal, or the call's error.
 */
async function shown(tls: TlsOptions): Promise<string> {
  let error: Error;
  try {
    const baas = createBaasClient({
      baseUrl: server.url,
      token: 'sbx_unused_token',
      tls,
      retry: { baseDelayMs: 0, maxDelayMs: 0 },
    });
    clients.push(baas);
    error = (await baas.listPixKeys().then(
      () => expect.unreachable('the call succeeded'),
      (thrown: unknown) => thrown,
    )) as Error;
  } catch (thrown) {
    error = thrown as Error;
  }
  return `${error.name}: ${error.message}`.replaceAll(server.url.replace(/\/$/, ''), GUIDE_URL);
}

/** The expired certificate's date, as the guide writes it (the test's certificate ended yesterday). */
const GUIDE_DATE = '2026-03-01T12:00:00.000Z';
const ISO_DATE = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/;

describe('the troubleshooting guide, client certificates', () => {
  it.each(['docs/guides/troubleshooting.md', 'docs/guias/troubleshooting.md'])(
    '%s quotes each certificate mistake as the client prints it now',
    async (guide) => {
      const lines = quoted(guide);
      const mistakes: TlsOptions[] = [
        { ca: certs.ca },
        { cert: certs.client.cert, key: certs.encryptedKey, passphrase: 'not-the-passphrase', ca: certs.ca },
        { cert: certs.client.cert, key: certs.unknown.key, ca: certs.ca },
        { ...certs.expired, ca: certs.ca },
        { cert: certs.client.cert, key: certs.client.key },
        { cert: join(certs.dir, 'client.crt'), key: join(certs.dir, 'client.key'), ca: certs.ca },
        { cert: certs.client.key, key: certs.client.cert, ca: certs.ca },
        { pfx: readFileSync(join(certs.dir, 'client.p12'), 'utf8'), passphrase: certs.passphrase, ca: certs.ca },
      ];
      for (const tls of mistakes) expect(lines).toContain((await shown(tls)).replace(ISO_DATE, GUIDE_DATE));
    },
  );
});
