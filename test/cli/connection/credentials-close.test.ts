// A run's credential source releases the TLS connections it pooled when it closes: the API's (--cert,
// --key, --pfx, --ca) and, with client credentials, the token endpoint's too, which clientCredentials
// builds from the same certificate. The TLS fetch module is replaced by a fake that counts its closes
// (a real pool's sockets are released the same way; test/tls/ covers those).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { credentialsFrom } from '../../../src/cli/connection/credentials.js';
import { makeTestCerts, type TestCerts } from '../../support/certs.js';

const built = vi.hoisted(() => ({
  usable: vi.fn<(tls: unknown, where: string) => Promise<unknown>>(),
}));
vi.mock('../../../src/tls/fetch.js', () => ({ usableTlsFetch: built.usable }));

let dir: string;
let certs: TestCerts;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'credentials-close-'));
  // A real certificate and key: `tls` checks the material when the source is made (the fetch is the fake).
  certs = await makeTestCerts();
  await writeFile(join(dir, 'client.crt'), certs.client.cert);
  await writeFile(join(dir, 'client.key'), certs.client.key);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await certs?.remove();
});
afterEach(() => {
  built.usable.mockReset();
});

/** Each TLS fetch built, by where it is used: `tls` (the API) or `clientCredentials.tls` (the token endpoint). */
function fakeTls() {
  const closes: Record<string, number> = {};
  built.usable.mockImplementation(async (_tls, where) => {
    closes[where] = 0;
    const send = async () =>
      Response.json({ access_token: `issued-${where}-4711`, token_type: 'Bearer', expires_in: 300 });
    return Object.assign(send, {
      close: async () => {
        closes[where] = (closes[where] ?? 0) + 1;
      },
    });
  });
  return closes;
}

const certificate = () => ({ cert: join(dir, 'client.crt'), key: join(dir, 'client.key') });

describe('close', () => {
  it('with a token: the pool of the API requests is closed', async () => {
    const closes = fakeTls();
    const source = credentialsFrom({ token: 'tok-123456', ...certificate() }, {});
    await source.fetch!('https://api.example/', {});
    expect(closes).toEqual({ tls: 0 });
    await source.close();
    expect(closes).toEqual({ tls: 1 });
  });

  it("with client credentials: the API's pool and the token endpoint's", async () => {
    const closes = fakeTls();
    const source = credentialsFrom(
      { 'token-url': 'https://auth.example/token', 'client-id': 'cid', ...certificate() },
      { BAAS_CLIENT_SECRET: 'client-secret-0815' },
    );
    expect(await source.authorization()).toBe('Bearer issued-clientCredentials.tls-4711');
    await source.fetch!('https://api.example/', {});
    expect(closes).toEqual({ tls: 0, 'clientCredentials.tls': 0 });
    await source.close();
    expect(closes).toEqual({ tls: 1, 'clientCredentials.tls': 1 });
  });

  it('without a certificate there is nothing to close, and closing still resolves', async () => {
    fakeTls();
    await expect(credentialsFrom({ token: 'tok-123456' }, {}).close()).resolves.toBeUndefined();
    const source = credentialsFrom(
      { 'token-url': 'https://auth.example/token', 'client-id': 'cid' },
      { BAAS_CLIENT_SECRET: 'client-secret-0815' },
    );
    await expect(source.close()).resolves.toBeUndefined();
    expect(built.usable).not.toHaveBeenCalled();
  });
});
