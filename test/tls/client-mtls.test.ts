// The client's `tls` option end to end: createBaasClient against a local HTTPS server that requires
// a client certificate (CA and certificates made by openssl for this run). The right certificate
// works; none, one from an unknown CA and an expired one each end as a BaasNetworkError naming the TLS
// failure, never a hang; `tls` with `fetch` is refused at creation.
import { describe, expect, it } from 'vitest';
import { createBaasClient, BaasNetworkError, type BaasClient, type TlsOptions } from '../../src/index.js';
import { fullUpdate, VALID_ACCOUNT, VALID_CPF } from '../support/fixtures.js';
import { mtlsServer } from '../support/mtls-server.js';

const world = mtlsServer();

function client(tls: TlsOptions): BaasClient {
  // retry: false: a refused certificate is refused again; one attempt shows the failure.
  const made = createBaasClient({
    baseUrl: world.server.url,
    token: 'tok_abcdef123456',
    tls,
    retry: false,
    timeoutMs: 10_000,
  });
  world.clients.push(made);
  return made;
}

const update = (c: BaasClient) =>
  c.updateNaturalPerson({ account: VALID_ACCOUNT, documentNumber: VALID_CPF, body: fullUpdate() });

describe('createBaasClient({ tls })', () => {
  it('presents the client certificate: the server sees it, the call succeeds', async () => {
    const answer = (await update(
      client({ cert: world.certs.client.cert, key: world.certs.client.key, ca: world.certs.ca }),
    )) as unknown as { client: string; method: string };
    expect(answer).toMatchObject({ client: 'client', method: 'PUT' });
  });

  it('PKCS#12 with a passphrase works the same', async () => {
    const answer = (await update(
      client({ pfx: world.certs.pfx, passphrase: world.certs.passphrase, ca: world.certs.ca }),
    )) as unknown as { client: string };
    expect(answer.client).toBe('client');
  });

  it.each([
    ['no certificate', () => ({ ca: world.certs.ca }), /requires a client certificate and none was sent/],
    [
      'a certificate from an unknown CA',
      () => ({ cert: world.certs.unknown.cert, key: world.certs.unknown.key, ca: world.certs.ca }),
      /refused the client certificate|does not trust the authority/,
    ],
    [
      'an expired certificate',
      () => ({ cert: world.certs.expired.cert, key: world.certs.expired.key, ca: world.certs.ca }),
      /expired/,
    ],
  ])('%s: a BaasNetworkError naming the TLS failure', async (_name, tls, reason) => {
    const error = await update(client(tls() as TlsOptions)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BaasNetworkError);
    const failure = error as BaasNetworkError;
    expect(failure.reason).toMatch(reason);
    expect(failure.message).toMatch(reason);
    expect(failure.code).toBeTruthy();
    expect(failure.attempts).toBe(1);
    const text = [failure.message, JSON.stringify(failure)].join('\n');
    expect(text).not.toContain(VALID_CPF);
    expect(text).not.toContain(world.certs.passphrase);
  });

  it('a tls option that cannot be used (wrong passphrase) is refused at creation, naming the field', () => {
    expect(() =>
      client({
        cert: world.certs.client.cert,
        key: world.certs.encryptedKey,
        passphrase: 'not it',
        ca: world.certs.ca,
      }),
    ).toThrow(/^createBaasClient: tls\.passphrase could not be used: it does not decrypt tls\.key/);
  });

  it('tls together with fetch, or a tls that is not an object, is refused at creation', () => {
    expect(() =>
      createBaasClient({
        baseUrl: world.server.url,
        token: 't0k3n-abc',
        tls: { ca: world.certs.ca },
        fetch: (url, init) => fetch(url, init),
      }),
    ).toThrow(/give either tls or fetch, not both/);
    expect(() =>
      createBaasClient({
        baseUrl: world.server.url,
        token: 't0k3n-abc',
        tls: world.certs.client.cert as unknown as TlsOptions,
      }),
    ).toThrow(/^createBaasClient: tls must be an object/);
  });

  it('a malformed tls is refused at creation with the field and the rule; a misspelt member gets the one meant', () => {
    const create = (tls: object) => () =>
      createBaasClient({ baseUrl: world.server.url, token: 't0k3n-abc', retry: false, tls: tls as TlsOptions });
    expect(create({ cert: world.certs.client.cert })).toThrow(/^tls\.key is required with tls\.cert/);
    expect(create({ cert: world.certs.client.cert, key: world.certs.client.key, passprase: 'x' })).toThrow(
      /^tls\.passprase is not an option; did you mean passphrase\?/,
    );
  });

  it('close() releases the agent, and a closed client opens a new one on its next call', async () => {
    const c = client({ cert: world.certs.client.cert, key: world.certs.client.key, ca: world.certs.ca });
    await update(c);
    await c.close();
    await expect(update(c)).resolves.toMatchObject({ client: 'client' });
  });
});
