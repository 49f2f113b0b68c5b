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
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { createBaasClient, type TlsOptions } from '../../src/index.js';
import { mtlsServer } from '../support/mtls-server.js';

const GUIDE_URL = 'https://127.0.0.1:4443';
const quoted = (path: string) =>
  [...readFileSync(join(repoRoot, path), 'utf8').matchAll(/```text\n([\s\S]*?)```/g)].flatMap(([, block]) =>
    block!.trimEnd().split('\n'),
  );

const world = mtlsServer();

/**
 * What a default client (its attempts, only its waits shortened) prints for one `tls`, at the guide's URL:
 * createBaasClient's refusal, or the call's error.
 */
async function shown(tls: TlsOptions): Promise<string> {
  let error: Error;
  try {
    const baas = createBaasClient({
      baseUrl: world.server.url,
      token: 'sbx_unused_token',
      tls,
      retry: { baseDelayMs: 0, maxDelayMs: 0 },
    });
    world.clients.push(baas);
    error = (await baas.listPixKeys().then(
      () => expect.unreachable('the call succeeded'),
      (thrown: unknown) => thrown,
    )) as Error;
  } catch (thrown) {
    error = thrown as Error;
  }
  return `${error.name}: ${error.message}`.replaceAll(world.server.url.replace(/\/$/, ''), GUIDE_URL);
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
        { ca: world.certs.ca },
        {
          cert: world.certs.client.cert,
          key: world.certs.encryptedKey,
          passphrase: 'not-the-passphrase',
          ca: world.certs.ca,
        },
        { cert: world.certs.client.cert, key: world.certs.unknown.key, ca: world.certs.ca },
        { ...world.certs.expired, ca: world.certs.ca },
        { cert: world.certs.client.cert, key: world.certs.client.key },
        { cert: join(world.certs.dir, 'client.crt'), key: join(world.certs.dir, 'client.key'), ca: world.certs.ca },
        { cert: world.certs.client.key, key: world.certs.client.cert, ca: world.certs.ca },
        {
          pfx: readFileSync(join(world.certs.dir, 'client.p12'), 'utf8'),
          passphrase: world.certs.passphrase,
          ca: world.certs.ca,
        },
      ];
      for (const tls of mistakes) expect(lines).toContain((await shown(tls)).replace(ISO_DATE, GUIDE_DATE));
    },
  );
});
