// checkTlsOptions without a server: each misshapen `tls` option is refused with a TypeError whose
// message names the field and the rule (never a value), and a good one becomes exactly the connect
// options that were given.
import { describe, expect, it } from 'vitest';
import { type BaasOptionError, isBaasOptionError, optionMessage } from '../../src/option-rules.js';
import { checkTlsOptions } from '../../src/tls/options.js';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nsecret-key-body\n-----END PRIVATE KEY-----\n';
/** PKCS#12 as bytes: DER, which begins with a SEQUENCE (0x30). */
const BYTES = new Uint8Array([0x30, 0x82, 0x01, 0x02]);
/** PEM read as bytes (readFileSync without 'utf8'). */
const PEM_BYTES = new TextEncoder().encode(PEM);
const EC_KEY = '-----BEGIN EC PRIVATE KEY-----\nsecret-key-body\n-----END EC PRIVATE KEY-----\n';
const ENCRYPTED_KEY = '-----BEGIN ENCRYPTED PRIVATE KEY-----\nsecret-key-body\n-----END ENCRYPTED PRIVATE KEY-----\n';
const CSR = '-----BEGIN CERTIFICATE REQUEST-----\nMIIB\n-----END CERTIFICATE REQUEST-----\n';

const refusal = (tls: unknown, where?: string): BaasOptionError => {
  try {
    checkTlsOptions(tls, where);
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    // The refusal is data, and its message is made of it: the command line reads the option to name its flag.
    if (!isBaasOptionError(error)) throw new Error('not a BaasOptionError');
    expect(error.message).toBe(optionMessage(error));
    return error;
  }
  throw new Error('checkTlsOptions accepted it');
};

describe('checkTlsOptions refuses, naming the field and the rule', () => {
  it.each([
    ['a string', 'a PEM string'],
    ['null', null],
    ['undefined', undefined],
    ['an array', [PEM]],
    ['a number', 42],
  ])('%s is not an options object', (_name, tls) => {
    expect(refusal(tls).message).toBe(
      'tls must be an object: { cert, key, passphrase? }, { pfx, passphrase? } or { ca }',
    );
  });

  it('says where the option was given', () => {
    expect(refusal(null, 'clientCredentials.tls').message).toBe(
      'clientCredentials.tls must be an object: { cert, key, passphrase? }, { pfx, passphrase? } or { ca }',
    );
    expect(refusal({ cert: PEM }, 'clientCredentials.tls').message).toBe(
      'clientCredentials.tls.key is required with clientCredentials.tls.cert',
    );
  });

  it('names the member by its path, and the rule apart from it', () => {
    const item = refusal({ ca: [PEM, ''] }, 'clientCredentials.tls');
    expect([item.where, item.option, item.rule]).toEqual([
      undefined,
      'clientCredentials.tls.ca[1]',
      'must be non-empty PEM text or bytes',
    ]);
    expect([refusal({ cert: PEM }).option, refusal({ cert: PEM }).rule]).toEqual([
      'tls.key',
      'is required with tls.cert',
    ]);
  });

  it.each([
    [
      { ca: PEM, rejectUnauthorized: false },
      'tls.rejectUnauthorized is not an option (known: cert, key, pfx, passphrase, ca)',
    ],
    [{ pfx: BYTES, cert: PEM }, 'tls must hold either pfx or cert and key, not both'],
    [{ pfx: BYTES, key: KEY }, 'tls must hold either pfx or cert and key, not both'],
    [{ cert: PEM }, 'tls.key is required with tls.cert'],
    [{ key: KEY }, 'tls.cert is required with tls.key'],
    [{ cert: '', key: KEY }, 'tls.cert must be non-empty PEM text or bytes'],
    [{ cert: ' \n\t', key: KEY }, 'tls.cert must be non-empty PEM text or bytes'],
    [{ cert: PEM, key: new Uint8Array(0) }, 'tls.key must be non-empty PEM text or bytes'],
    [{ cert: PEM, key: 12 }, 'tls.key must be non-empty PEM text or bytes'],
    [{ cert: [PEM], key: KEY }, 'tls.cert must be non-empty PEM text or bytes'],
    [{ pfx: '' }, 'tls.pfx must be non-empty PEM text or bytes'],
    [{ pfx: {} }, "tls.pfx must be the PKCS#12 file's bytes, e.g. pfx: readFileSync(path)"],
    [{ pfx: BYTES, passphrase: 1234 }, 'tls.passphrase must be a string'],
    [{ ca: PEM, passphrase: 'x' }, 'tls.passphrase needs a key or a pfx to decrypt'],
    [{ ca: [] }, 'tls.ca must not be an empty list'],
    [{ ca: '' }, 'tls.ca must be non-empty PEM text or bytes'],
    [{ ca: [PEM, ''] }, 'tls.ca[1] must be non-empty PEM text or bytes'],
    [{ ca: [new Uint8Array(0)] }, 'tls.ca[0] must be non-empty PEM text or bytes'],
    [{}, 'tls needs a client certificate ({ cert, key } or { pfx }) or a ca'],
    [
      { cert: undefined, key: undefined, ca: undefined },
      'tls needs a client certificate ({ cert, key } or { pfx }) or a ca',
    ],
  ])('%o', (tls, message) => {
    const error = refusal(tls);
    expect(error.message).toBe(message);
    expect(error.message).not.toContain('secret-key-body');
  });
});

// The rule of PEM's format (RFC 7468): each field holds a block of its kind, by the block's label.
describe('checkTlsOptions reads PEM by its labels, at creation, saying what a field holds instead', () => {
  it.each([
    // A path given for the file's contents.
    [
      { cert: '/etc/baas/client.crt', key: KEY },
      "tls.cert is not PEM text; it looks like a file path: pass readFileSync(path, 'utf8')",
    ],
    [
      { cert: PEM, key: './certs/client.key' },
      "tls.key is not PEM text; it looks like a file path: pass readFileSync(path, 'utf8')",
    ],
    [
      { cert: 'client.pem', key: KEY },
      "tls.cert is not PEM text; it looks like a file path: pass readFileSync(path, 'utf8')",
    ],
    [
      { cert: PEM, key: 'C:\\certs\\client.key' },
      "tls.key is not PEM text; it looks like a file path: pass readFileSync(path, 'utf8')",
    ],
    [{ ca: '~/certs/ca.pem' }, "tls.ca is not PEM text; it looks like a file path: pass readFileSync(path, 'utf8')"],
    [
      { ca: [PEM, '/etc/ssl/provider-ca.crt'] },
      "tls.ca[1] is not PEM text; it looks like a file path: pass readFileSync(path, 'utf8')",
    ],
    // A path without an extension is told by how it begins; one without either is not a path.
    ...[
      '/etc/baas/client',
      './client',
      '../certs/client',
      '~/client',
      '.\\client',
      'C:\\certs\\client',
      'd:/certs/client',
    ].map((path): [{ cert: string; key: string }, string] => [
      { cert: path, key: KEY },
      "tls.cert is not PEM text; it looks like a file path: pass readFileSync(path, 'utf8')",
    ]),
    ...['client', '.client', '~client', 'C:client', 'a.b c', 'MII.toolong'].map(
      (text): [{ cert: string; key: string }, string] => [
        { cert: text, key: KEY },
        'tls.cert is not PEM text: it must hold a -----BEGIN CERTIFICATE----- block',
      ],
    ),
    // A block of the other kind.
    [
      { cert: KEY, key: PEM },
      'tls.cert holds a PRIVATE KEY, not a -----BEGIN CERTIFICATE----- block: cert and key swapped?',
    ],
    [
      { cert: PEM, key: PEM },
      'tls.key holds a CERTIFICATE, not a -----BEGIN … PRIVATE KEY----- block: cert and key swapped?',
    ],
    [{ cert: CSR, key: KEY }, 'tls.cert holds a CERTIFICATE REQUEST, not a -----BEGIN CERTIFICATE----- block'],
    [{ cert: PEM, key: CSR }, 'tls.key holds a CERTIFICATE REQUEST, not a -----BEGIN … PRIVATE KEY----- block'],
    [{ ca: CSR }, 'tls.ca holds a CERTIFICATE REQUEST, not a -----BEGIN CERTIFICATE----- block'],
    [
      { ca: EC_KEY },
      "tls.ca holds an EC PRIVATE KEY, not a -----BEGIN CERTIFICATE----- block: ca takes the authority's certificate, never a key",
    ],
    // Neither PEM nor a path.
    [
      { cert: 'MIIBkTCB+wIJAKHBfpegPjMCMA0GCSqGSIb3DQEBCwUA', key: KEY },
      'tls.cert is not PEM text: it must hold a -----BEGIN CERTIFICATE----- block',
    ],
    // Base64 holds "/" and "+": not a path, unless it begins as one.
    [
      { cert: 'MIIBkTCB/wIJAKHB+fpegPjMCMA0GCSqGSIb3DQEBCwUA', key: KEY },
      'tls.cert is not PEM text: it must hold a -----BEGIN CERTIFICATE----- block',
    ],
    // A path read from a file or a variable keeps its line break: still one line, still a path.
    [
      { cert: ' /etc/baas/client.crt\n', key: KEY },
      "tls.cert is not PEM text; it looks like a file path: pass readFileSync(path, 'utf8')",
    ],
    [
      { cert: new Uint8Array([0x30, 0x82, 1]), key: KEY },
      'tls.cert holds no PEM block: it must hold a -----BEGIN CERTIFICATE----- block (DER bytes? openssl x509 -inform der converts them)',
    ],
    [
      { ca: new Uint8Array([0x30, 0x82, 1]) },
      'tls.ca holds no PEM block: it must hold a -----BEGIN CERTIFICATE----- block (DER bytes? openssl x509 -inform der converts them)',
    ],
    [{ pfx: '  \n' }, 'tls.pfx must be non-empty PEM text or bytes'],
    [
      { cert: PEM, key: new Uint8Array([0x30, 0x82, 1]) },
      'tls.key holds no PEM block: it must hold a -----BEGIN … PRIVATE KEY----- block (DER bytes? openssl pkey -inform der converts them)',
    ],
    // pfx: the file's bytes, never a string.
    [
      { pfx: '/etc/baas/client.p12' },
      "tls.pfx must be the PKCS#12 file's bytes, not a string: pass readFileSync(path) (without 'utf8')",
    ],
    [
      { pfx: '0\u0082\u0003' },
      "tls.pfx must be the PKCS#12 file's bytes, not a string: pass readFileSync(path) (without 'utf8')",
    ],
    [{ pfx: PEM_BYTES }, 'tls.pfx holds PEM (a CERTIFICATE), not a PKCS#12 file: give PEM as cert and key instead'],
    [{ pfx: new Uint8Array(0) }, 'tls.pfx must be non-empty PEM text or bytes'],
    [
      { pfx: new Uint8Array([1, 2, 3]) },
      'tls.pfx is not a PKCS#12 file (its bytes do not begin as DER does, with 0x30)',
    ],
  ])('%o', (tls, message) => {
    const error = refusal(tls);
    expect(error.message).toBe(message);
    expect(error.message).not.toContain('secret-key-body');
    expect(error.message).not.toContain('/etc/');
  });

  it.each([
    ['a PKCS#8 key', { cert: PEM, key: KEY }],
    ['a legacy EC key', { cert: PEM, key: EC_KEY }],
    ['an encrypted key', { cert: PEM, key: ENCRYPTED_KEY, passphrase: 'pw' }],
    [
      'a chain with text before its blocks, as openssl x509 -text writes',
      { cert: `Certificate:\n  Data: …\n${PEM}${PEM}`, key: KEY },
    ],
    ['a bundle that holds a key beside the certificate', { cert: `${PEM}${KEY}`, key: KEY }],
    ['PEM as bytes', { cert: PEM_BYTES, key: Buffer.from(KEY), ca: PEM_BYTES }],
    ['a trusted certificate as ca', { ca: PEM.replaceAll('CERTIFICATE', 'TRUSTED CERTIFICATE') }],
  ])('takes %s', (_name, tls) => {
    expect(() => checkTlsOptions(tls)).not.toThrow();
  });
});

describe('checkTlsOptions names the member meant by a name other libraries use', () => {
  it.each([
    ['password', 'passphrase'],
    ['pass', 'passphrase'],
    ['certificate', 'cert'],
    ['privateKey', 'key'],
    ['certificateAuthority', 'ca'],
    ['cacert', 'ca'],
    ['pkcs12', 'pfx'],
    ['p12', 'pfx'],
  ])('%s: did you mean %s?', (given, meant) => {
    const error = refusal({ pfx: BYTES, [given]: 'x' });
    expect(error.option).toBe(`tls.${given}`);
    expect(error.rule).toMatch(new RegExp(`^is not an option; did you mean ${meant}\\? \\(known: `));
  });
});

describe('checkTlsOptions returns exactly the fields given', () => {
  it('a PEM pair with a passphrase and a ca list', () => {
    const out = checkTlsOptions({ cert: PEM, key: KEY, passphrase: '', ca: [PEM, PEM_BYTES] });
    expect(out).toStrictEqual({ cert: PEM, key: KEY, passphrase: '', ca: [PEM, PEM_BYTES] });
  });

  it('a PKCS#12 file as bytes, with its passphrase', () => {
    expect(checkTlsOptions({ pfx: BYTES, passphrase: 'pw' })).toStrictEqual({ pfx: BYTES, passphrase: 'pw' });
  });

  it('a single ca stays a single value; fields given as undefined are left out', () => {
    expect(checkTlsOptions({ ca: PEM_BYTES, cert: undefined, extra: undefined })).toStrictEqual({ ca: PEM_BYTES });
  });

  it('a Node Buffer counts as bytes', () => {
    const cert = Buffer.from(PEM);
    expect(checkTlsOptions({ cert, key: KEY })).toStrictEqual({ cert, key: KEY });
  });
});
