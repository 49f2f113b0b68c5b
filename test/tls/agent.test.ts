// createTlsFetch with an injected (url, init) fetch, no server: the key material is checked when the
// fetch is made (the field named, OpenSSL's words and code, never a value), every call carries the
// agent as its dispatcher, and a failed call becomes a TlsConnectionError only when the failure was TLS.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as undici from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTlsFetch, usableTlsFetch } from '../../src/tls/fetch.js';
import { TlsConnectionError } from '../../src/tls/failure.js';
import type { TlsOptions } from '../../src/tls/options.js';
import type { UrlInitFetch } from '../../src/tls/adapt.js';
import { makeTestCerts, type TestCerts } from '../support/certs.js';
import { startHttpsServer } from '../support/https-server.js';

let certs: TestCerts;
beforeAll(async () => {
  certs = await makeTestCerts();
});
afterAll(async () => {
  await certs?.remove();
});

const failure = (promise: Promise<unknown>): Promise<Error> =>
  promise.then(
    () => {
      throw new Error('it did not fail');
    },
    (error: unknown) => error as Error,
  );

/** A fetch that records each (url, init) and answers with `answer`. */
function recording(answer: (url: string) => Promise<Response>) {
  const calls: [string, Record<string, unknown>][] = [];
  const fetch: UrlInitFetch = (url, init) => {
    calls.push([url, init]);
    return answer(url);
  };
  return { fetch, calls };
}

/** A PEM block of `label` around `text` (base64), as a damaged file might hold. */
const pemBlock = (label: string, text: string) =>
  `-----BEGIN ${label}-----\n${Buffer.from(text).toString('base64')}\n-----END ${label}-----\n`;

describe('the key material is checked when the TLS fetch is made', () => {
  it.each([
    [
      'a wrong passphrase for the key',
      () => ({ cert: certs.client.cert, key: certs.encryptedKey, passphrase: 'not it' }),
      'tls.passphrase could not be used: it does not decrypt tls.key (a wrong passphrase, or a damaged key); give the passphrase the key was encrypted with',
    ],
    [
      'an encrypted key without its passphrase',
      () => ({ cert: certs.client.cert, key: certs.encryptedKey }),
      'tls.passphrase is missing: tls.key is an encrypted key; give the passphrase it was encrypted with',
    ],
    [
      'a wrong PKCS#12 passphrase (no code from Node)',
      () => ({ pfx: certs.pfx, passphrase: 'not it' }),
      'tls.passphrase could not be used: it does not open tls.pfx (mac verify failure); give the passphrase the PKCS#12 file was exported with',
    ],
    [
      'a key of another certificate',
      () => ({ cert: certs.client.cert, key: certs.unknown.key }),
      'tls.key does not belong to tls.cert: error:05800074:x509 certificate routines::key values mismatch (ERR_OSSL_X509_KEY_VALUES_MISMATCH); give the private key of that certificate (openssl x509 -noout -pubkey -in client.crt and openssl pkey -pubout -in client.key print the same key)',
    ],
    // Material whose format is right (a PEM block of its kind, DER's first byte) but whose contents are not:
    // what the format's rule cannot tell (options.ts), OpenSSL says.
    [
      'a cert whose PEM block holds no certificate',
      () => ({ cert: pemBlock('CERTIFICATE', 'not a cert'), key: certs.client.key }),
      "tls.cert could not be used: error:0680009B:asn1 encoding routines::too long (ERR_OSSL_ASN1_TOO_LONG); give the certificate file's PEM text as issued (openssl x509 -noout -in client.crt reads it)",
    ],
    [
      'a key whose PEM block holds no key',
      () => ({ cert: certs.client.cert, key: pemBlock('PRIVATE KEY', 'not a key') }),
      /^tls\.key could not be used: .+ \(ERR_OSSL_.+\); give the private key file's PEM text as issued/,
    ],
    [
      'a pfx that begins as DER but is not PKCS#12',
      () => ({ pfx: Buffer.from([0x30, 0x82, 1, 2, 3]) }),
      "tls.pfx could not be used: not enough data; give the PKCS#12 file's bytes as exported (openssl pkcs12 -info -in client.p12 reads it)",
    ],
    [
      'a pfx that begins as DER but is not PKCS#12, with a ca',
      () => ({ pfx: new Uint8Array([0x30, 0x82, 1, 2, 3]), ca: certs.ca }),
      "tls.pfx could not be used: not enough data; give the PKCS#12 file's bytes as exported (openssl pkcs12 -info -in client.p12 reads it)",
    ],
  ])('%s', async (_name, tls, message) => {
    const error = await failure(createTlsFetch(tls() as TlsOptions));
    expect(error).toBeInstanceOf(TypeError);
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
    expect(error.cause).toBeInstanceOf(Error);
    expect(error.message).not.toContain(certs.passphrase);
  });

  it('a wrong passphrase is named as such even when OpenSSL does not say "bad decrypt" (1 passphrase in 256)', async () => {
    // A wrong passphrase that happens to leave valid AES-CBC padding decrypts to garbage OpenSSL cannot
    // decode ("DECODER routines::unsupported"); the rule reads the key's format, not that message.
    const { createPrivateKey } = await import('node:crypto');
    const opensslSays = (passphrase: string) => {
      try {
        createPrivateKey({ key: certs.encryptedKey, format: 'pem', passphrase });
        return 'it decrypted';
      } catch (error) {
        return (error as Error).message;
      }
    };
    // 4,000 tries find one with odds of 1 - (255/256)^4000, all but certain.
    const unlucky = Array.from({ length: 4000 }, (_, i) => `wrong ${i}`).find(
      (passphrase) => !/bad decrypt/.test(opensslSays(passphrase)),
    );
    expect(unlucky, 'a wrong passphrase OpenSSL does not call a bad decrypt').toBeDefined();
    const error = await failure(
      createTlsFetch({ cert: certs.client.cert, key: certs.encryptedKey, passphrase: unlucky! }),
    );
    expect(error.message).toMatch(/^tls\.passphrase could not be used: it does not decrypt tls\.key/);
    expect(error.message).not.toContain(unlucky!);
  });

  it('names the fields as the caller placed them', async () => {
    const error = await failure(
      createTlsFetch({ cert: certs.client.cert, key: certs.unknown.key }, { where: 'clientCredentials.tls' }),
    );
    expect(error.message).toMatch(/^clientCredentials.tls.key .*clientCredentials.tls.cert/);
    const shape = await failure(
      createTlsFetch({ cert: certs.client.cert } as TlsOptions, { where: 'clientCredentials.tls' }),
    );
    expect(shape.message).toMatch(/^clientCredentials.tls.key .*clientCredentials.tls.cert$/);
  });

  it('material given as bytes (not a Buffer) is read as the same PEM', async () => {
    const bytes = (text: string) => new Uint8Array(new TextEncoder().encode(`padding${text}`).buffer, 7);
    const f = await createTlsFetch({
      cert: bytes(certs.client.cert),
      key: bytes(certs.encryptedKey),
      passphrase: certs.passphrase,
      ca: [bytes(certs.ca), certs.ca],
    });
    await f.close();
  });
});

describe('usableTlsFetch (what the client loads lazily)', () => {
  it('a tls option that cannot be used becomes a TypeError with code ERR_TLS_OPTION and the message as reason', async () => {
    const error = (await failure(
      usableTlsFetch({ cert: certs.client.cert, key: certs.unknown.key }, 'tls'),
    )) as TypeError & { code: string; reason: string };
    expect(error).toBeInstanceOf(TypeError);
    expect(error.code).toBe('ERR_TLS_OPTION');
    expect(error.message).toMatch(/^tls.key .*tls.cert/);
    expect(error.reason).toBe(error.message);
    expect((error.cause as Error).message).toBe(error.message);
  });

  it('a malformed shape the same way, with its where', async () => {
    const error = (await failure(
      usableTlsFetch({ pfx: certs.pfx, cert: certs.client.cert } as TlsOptions, 'clientCredentials.tls'),
    )) as TypeError & { code: string; reason: string };
    expect(error.code).toBe('ERR_TLS_OPTION');
    expect(error.reason).toMatch(/^clientCredentials.tls must hold either pfx or cert/);
  });

  it('a usable one is the TLS fetch, with close()', async () => {
    const f = await usableTlsFetch({ ca: certs.ca }, 'tls');
    expect(typeof f).toBe('function');
    await f.close();
  });
});

describe('the TLS fetch', () => {
  it('sends every call through the given fetch with an undici Agent as dispatcher, and close() closes that agent', async () => {
    const { fetch, calls } = recording(async () => new Response('{"ok":true}', { status: 200 }));
    const f = await createTlsFetch({ cert: certs.client.cert, key: certs.client.key, ca: certs.ca }, { fetch });
    const response = await f('https://api.example/v2/x', { method: 'PUT', body: '{}' });
    expect(await response.json()).toStrictEqual({ ok: true });
    expect(calls).toHaveLength(1);
    const [url, init] = calls[0]!;
    expect(url).toBe('https://api.example/v2/x');
    expect(init).toMatchObject({ method: 'PUT', body: '{}' });
    const agent = init.dispatcher as undici.Agent;
    expect(agent).toBeInstanceOf(undici.Agent);
    expect(agent.closed).toBe(false);
    await f.close();
    expect(agent.closed).toBe(true);
  });

  it('a TLS failure becomes a TlsConnectionError naming the host, the reason and the code', async () => {
    const cause = new TypeError('fetch failed', {
      cause: Object.assign(new Error('cert expired'), { code: 'CERT_HAS_EXPIRED' }),
    });
    const { fetch } = recording(() => Promise.reject(cause));
    const f = await createTlsFetch({ ca: certs.ca }, { fetch });
    try {
      const error = await failure(f('https://api.example:8443/v2/x', {}));
      expect(error).toBeInstanceOf(TlsConnectionError);
      expect(error.message).toMatch(/^TLS connection to api.example:8443/);
      expect(error.message).toMatch(/ \(CERT_HAS_EXPIRED\)$/);
      expect(error.cause).toBe(cause);
    } finally {
      await f.close();
    }
  });

  it('any other failure is rethrown as it is', async () => {
    const refused = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    // A socket error for a port no watched socket had: nothing to explain.
    const closed = new TypeError('fetch failed', {
      cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET', socket: { localPort: 1 } }),
    });
    for (const thrown of [refused, closed]) {
      const { fetch } = recording(() => Promise.reject(thrown));
      const f = await createTlsFetch({ ca: certs.ca }, { fetch });
      try {
        expect(await failure(f('https://api.example/v2/x', {}))).toBe(thrown);
      } finally {
        await f.close();
      }
    }
  });

  it('a plain http:// URL goes through as well (no TLS socket to watch)', async () => {
    const server = createServer((_request, response) => response.end('plain'));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const f = await createTlsFetch({ ca: certs.ca });
    try {
      const response = await f(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`, {});
      expect(await response.text()).toBe('plain');
    } finally {
      await f.close();
      await new Promise((done) => server.close(done));
    }
  });

  it('a port nothing listens on: the failure as fetch gives it, not a TLS one', async () => {
    const server = createServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    await new Promise((done) => server.close(done));
    const f = await createTlsFetch({ ca: certs.ca });
    try {
      const error = await failure(f(`https://127.0.0.1:${port}/x`, {}));
      expect(error).not.toBeInstanceOf(TlsConnectionError);
      expect(error.message).toBe('fetch failed');
      expect((error.cause as { code?: string }).code).toBe('ECONNREFUSED');
    } finally {
      await f.close();
    }
  });

  it('against a server requiring a client certificate: presented, it is seen; missing, the TLS alert is named', async () => {
    const server = await startHttpsServer({ ...certs.server, ca: certs.ca, requireClientCert: true });
    const good = await createTlsFetch({ cert: certs.client.cert, key: certs.client.key, ca: certs.ca });
    const none = await createTlsFetch({ ca: certs.ca });
    try {
      expect(await (await good(`${server.url}/x`, {})).json()).toMatchObject({ client: 'client' });
      const error = await failure(none(`${server.url}/x`, {}));
      expect(error).toBeInstanceOf(TlsConnectionError);
      // The host, the options that would give a certificate, and the code.
      expect(error.message).toContain(` ${new URL(server.url).host} `);
      expect(error.message).toContain('tls.key, or tls.pfx');
      expect(error.message).toMatch(/\(ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED\)$/);
    } finally {
      await Promise.all([good.close(), none.close()]);
      await server.close();
    }
  });
});
