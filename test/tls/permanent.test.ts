// What a stranger taking the packed package to production met, through createBaasClient with its
// default retries (only the waits shortened), against a real HTTPS server that requires a client
// certificate, with real certificates made by openssl:
// - a `tls` option whose material cannot be used (a wrong passphrase, for a key or a pfx, a key of another
//   certificate, a damaged PEM block) is refused at createBaasClient, naming the field and what to do, with
//   nothing sent;
// - a failure another attempt cannot cure ends at the first attempt: an expired client certificate,
//   the server's "certificate required" alert; a failure of the connection itself is still retried;
// - PEM given wrong (a path, cert and key swapped, pfx as a string) is refused at creation, naming what the
//   field holds, before anything is sent;
// - a name other libraries use (`password`) gets the member meant;
// - `tls` with a plain http baseUrl is refused at creation: the certificate would never be presented.
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type BaasClient, type BaasClientOptions, createBaasClient, type TlsOptions } from '../../src/index.js';
import { isBaasOptionError } from '../../src/option-rules.js';
import { mtlsServer } from '../support/mtls-server.js';

const world = mtlsServer();

/** A client with the default retries (3 attempts), the waits shortened to nothing. */
function client(tls: TlsOptions, more: Partial<BaasClientOptions> = {}): BaasClient {
  const made = createBaasClient({
    baseUrl: world.server.url,
    token: 'sbx_unused_token',
    tls,
    retry: { baseDelayMs: 0, maxDelayMs: 0 },
    ...more,
  });
  world.clients.push(made);
  return made;
}

/** The call's error and how many retries the client announced. */
async function failed(
  baas: BaasClient,
): Promise<{ error: Error & { attempts?: number; code?: string }; retries: number }> {
  let retries = 0;
  baas.on('retry', () => {
    retries += 1;
  });
  const error = await baas.listPixKeys().then(
    () => expect.unreachable('the call succeeded'),
    (thrown: unknown) => thrown as Error & { attempts?: number; code?: string },
  );
  return { error, retries };
}

/** A line of a PEM key's base64 body: what must never reach a message. */
const keyBody = (pem: string) => pem.split('\n')[1]!;

/** A port nothing listens on (one that was free a moment ago), not one fetch blocks. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const pemBlock = (label: string, text: string) =>
  `-----BEGIN ${label}-----\n${Buffer.from(text).toString('base64')}\n-----END ${label}-----\n`;

// Thrown by createBaasClient itself: there is no client, so nothing can have been sent.
describe('material that cannot be used is refused at createBaasClient, with nothing sent', () => {
  it.each([
    [
      'a wrong passphrase',
      () => ({ cert: world.certs.client.cert, key: world.certs.encryptedKey, passphrase: 'not-the-passphrase' }),
      'tls.passphrase',
      /^createBaasClient: tls\.passphrase could not be used: it does not decrypt tls\.key .*; give the passphrase the key was encrypted with$/,
    ],
    [
      'an encrypted key without its passphrase',
      () => ({ cert: world.certs.client.cert, key: world.certs.encryptedKey }),
      'tls.passphrase',
      /^createBaasClient: tls\.passphrase is missing: tls\.key is an encrypted key; give the passphrase/,
    ],
    [
      'a pfx with the wrong passphrase',
      () => ({ pfx: world.certs.pfx, passphrase: 'not-the-passphrase' }),
      'tls.passphrase',
      /^createBaasClient: tls\.passphrase could not be used: it does not open tls\.pfx \(mac verify failure\); give the passphrase the PKCS#12 file was exported with$/,
    ],
    [
      'a key of another certificate',
      () => ({ cert: world.certs.client.cert, key: world.certs.unknown.key }),
      'tls.key',
      /^createBaasClient: tls\.key does not belong to tls\.cert: .*key values mismatch.*; give the private key of that certificate/,
    ],
    [
      'a PEM block OpenSSL cannot read',
      () => ({ cert: pemBlock('CERTIFICATE', 'not a certificate'), key: world.certs.client.key }),
      'tls.cert',
      /^createBaasClient: tls\.cert could not be used: .*\(ERR_OSSL_[A-Z0-9_]+\); give the certificate file's PEM text as issued/,
    ],
  ])('%s', (_name, tls, option, message) => {
    let error: unknown;
    try {
      client({ ...tls(), ca: world.certs.ca } as TlsOptions);
    } catch (thrown) {
      error = thrown;
    }
    expect(isBaasOptionError(error), 'a BaasOptionError').toBe(true);
    const refused = error as Error & { option: string; rule: string; where: string };
    expect(refused).toBeInstanceOf(TypeError);
    expect(refused.where).toBe('createBaasClient');
    expect(refused.option).toBe(option);
    expect(refused.message).toMatch(message);
    for (const secret of [
      world.certs.passphrase,
      'not-the-passphrase',
      keyBody(world.certs.client.key),
      keyBody(world.certs.encryptedKey),
    ])
      expect(`${refused.message}\n${refused.rule}\n${JSON.stringify(refused)}`).not.toContain(secret);
  });

  it('clientCredentials refuses the same material at creation, by its own path', async () => {
    const { clientCredentials } = await import('../../src/index.js');
    const make = () =>
      clientCredentials({
        tokenUrl: `${world.server.url}/oauth/token`,
        clientId: 'id',
        clientSecret: 'sec_0123456789',
        tls: { cert: world.certs.client.cert, key: world.certs.unknown.key },
      });
    expect(make).toThrow(/^clientCredentials\.tls\.key does not belong to clientCredentials\.tls\.cert: /);
  });
});

describe('a failure another attempt cannot cure is not retried', () => {
  it.each([
    ['an expired client certificate', () => ({ ...world.certs.expired, ca: world.certs.ca }), 'CLIENT_CERT_EXPIRED'],
    [
      'no client certificate: the "certificate required" alert',
      () => ({ ca: world.certs.ca }),
      'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
    ],
  ])('%s: one attempt, no retry', async (_name, tls, code) => {
    const { error, retries } = await failed(client(tls()));
    expect(error.name).toBe('BaasNetworkError');
    expect(error.code).toBe(code);
    expect(error.attempts).toBe(1);
    expect(retries).toBe(0);
    expect(error.message).toContain('after 1 attempt (');
    expect(error.message).not.toContain(world.certs.passphrase);
  });

  it("the expired certificate's date is printed in ISO 8601, which the CPF masking leaves whole", async () => {
    const { error } = await failed(client({ ...world.certs.expired, ca: world.certs.ca }));
    expect(error.message).toMatch(/the client certificate expired on \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z, /);
    expect(error.message).not.toContain('*');
  });

  it('a failure of the connection itself is retried as before (a refused connection: 3 attempts)', async () => {
    const baas = createBaasClient({
      baseUrl: `https://127.0.0.1:${await closedPort()}`,
      token: 'sbx_unused_token',
      tls: { ca: world.certs.ca },
      retry: { baseDelayMs: 0, maxDelayMs: 0 },
    });
    world.clients.push(baas);
    const { error, retries } = await failed(baas);
    expect(error.attempts).toBe(3);
    expect(retries).toBe(2);
  });
});

describe('PEM given wrong is refused at creation, naming what the field holds, never its contents', () => {
  /** The BaasOptionError createBaasClient throws for `tls`, before anything is sent. */
  function refused(tls: unknown): Error {
    try {
      createBaasClient({ baseUrl: world.server.url, token: 'sbx_unused_token', tls: tls as TlsOptions });
    } catch (error) {
      expect(isBaasOptionError(error)).toBe(true);
      const message = (error as Error).message;
      for (const secret of [keyBody(world.certs.client.key), keyBody(world.certs.encryptedKey), world.certs.dir])
        expect(message).not.toContain(secret);
      return error as Error;
    }
    return expect.unreachable('createBaasClient accepted it');
  }

  it.each([
    [
      'a path for tls.cert',
      () => ({ cert: join(world.certs.dir, 'client.crt'), key: world.certs.client.key }),
      "tls.cert is not PEM text; it looks like a file path: pass readFileSync(path, 'utf8')",
    ],
    [
      'a path for tls.key',
      () => ({ cert: world.certs.client.cert, key: join(world.certs.dir, 'client.key') }),
      "tls.key is not PEM text; it looks like a file path: pass readFileSync(path, 'utf8')",
    ],
    [
      'cert and key swapped',
      () => ({ cert: world.certs.client.key, key: world.certs.client.cert }),
      /^tls\.cert holds an? [A-Z ]*PRIVATE KEY, not a -----BEGIN CERTIFICATE----- block: cert and key swapped\?$/,
    ],
    [
      'pfx read as utf8 text',
      () => ({ pfx: readFileSync(join(world.certs.dir, 'client.p12'), 'utf8'), passphrase: world.certs.passphrase }),
      "tls.pfx must be the PKCS#12 file's bytes, not a string: pass readFileSync(path) (without 'utf8')",
    ],
    [
      'pfx given as a path',
      () => ({ pfx: join(world.certs.dir, 'client.p12'), passphrase: world.certs.passphrase }),
      "tls.pfx must be the PKCS#12 file's bytes, not a string: pass readFileSync(path) (without 'utf8')",
    ],
    [
      'a path for tls.ca',
      () => ({ ca: join(world.certs.dir, 'ca.crt') }),
      "tls.ca is not PEM text; it looks like a file path: pass readFileSync(path, 'utf8')",
    ],
  ])('%s', (_name, tls, message) => {
    const error = refused(tls());
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
  });

  it('the test certificates are where the paths say (the mistakes above are real ones)', () => {
    expect(readFileSync(join(world.certs.dir, 'client.crt'), 'utf8')).toBe(world.certs.client.cert);
    expect(readFileSync(join(world.certs.dir, 'client.p12'))).toStrictEqual(world.certs.pfx);
  });

  it('tls.password: did you mean passphrase?', () => {
    const error = refused({
      cert: world.certs.client.cert,
      key: world.certs.encryptedKey,
      password: world.certs.passphrase,
    });
    expect(error.message).toMatch(/^tls\.password is not an option; did you mean passphrase\? \(known: /);
    expect(error.message).not.toContain(world.certs.passphrase);
  });
});

describe('tls with a plain http baseUrl is refused at creation: the certificate would never be presented', () => {
  it.each([
    ['loopback', 'http://127.0.0.1:4020', {}],
    [
      'another host, allowInsecureHttp given (it lets the token travel in clear; it says nothing of TLS)',
      'http://baas.internal',
      { allowInsecureHttp: true },
    ],
  ])('%s', (_name, baseUrl, more) => {
    let error: unknown;
    try {
      createBaasClient({
        baseUrl,
        token: 'sbx_unused_token',
        tls: { cert: world.certs.client.cert, key: world.certs.client.key },
        ...more,
      });
    } catch (thrown) {
      error = thrown;
    }
    expect(isBaasOptionError(error)).toBe(true);
    const refusal = error as Error & { where: string; option: string; rule: string };
    expect(refusal.where).toBe('createBaasClient');
    expect(refusal.option).toBe('tls');
    expect(refusal.rule).toContain(`baseUrl ${new URL(baseUrl).origin}`);
    expect(refusal.message).toBe(
      `createBaasClient: tls is never used with baseUrl ${new URL(baseUrl).origin}: a client certificate and a ca are presented only over https, and baseUrl uses plain http; give the https:// URL, or leave tls out`,
    );
  });

  it('an https baseUrl takes it', () => {
    expect(() =>
      client({ cert: world.certs.client.cert, key: world.certs.client.key, ca: world.certs.ca }),
    ).not.toThrow();
  });
});

describe('clientCredentials: tls with a plain http tokenUrl is refused at creation, for the same reason', () => {
  it('names clientCredentials.tls and tokenUrl', async () => {
    const { clientCredentials } = await import('../../src/index.js');
    let error: unknown;
    try {
      clientCredentials({
        tokenUrl: 'http://127.0.0.1:4020/oauth/token',
        clientId: 'id',
        clientSecret: 'secret-value',
        tls: { cert: world.certs.client.cert, key: world.certs.client.key },
      });
    } catch (thrown) {
      error = thrown;
    }
    expect(isBaasOptionError(error)).toBe(true);
    expect((error as { option: string }).option).toBe('clientCredentials.tls');
    expect((error as Error).message).toMatch(
      /^clientCredentials\.tls is never used with tokenUrl http:\/\/127\.0\.0\.1:4020: /,
    );
    expect((error as Error).message).not.toContain('secret-value');
  });
});
