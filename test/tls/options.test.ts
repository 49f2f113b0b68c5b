// checkTlsOptions without a server: each misshapen `tls` option is refused with a TypeError whose
// message names the field and the rule (never a value), and a good one becomes exactly the connect
// options that were given.
import { describe, expect, it } from 'vitest';
import { type BaasOptionError, isBaasOptionError, optionMessage } from '../../src/option-rules.js';
import { checkTlsOptions } from '../../src/tls/options.js';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nsecret-key-body\n-----END PRIVATE KEY-----\n';
const BYTES = new Uint8Array([1, 2, 3]);

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
    [{ pfx: {} }, 'tls.pfx must be non-empty PEM text or bytes'],
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

describe('checkTlsOptions returns exactly the fields given', () => {
  it('a PEM pair with a passphrase and a ca list', () => {
    const out = checkTlsOptions({ cert: PEM, key: KEY, passphrase: '', ca: [PEM, BYTES] });
    expect(out).toStrictEqual({ cert: PEM, key: KEY, passphrase: '', ca: [PEM, BYTES] });
  });

  it('a PKCS#12 file as bytes, with its passphrase', () => {
    expect(checkTlsOptions({ pfx: BYTES, passphrase: 'pw' })).toStrictEqual({ pfx: BYTES, passphrase: 'pw' });
  });

  it('a single ca stays a single value; fields given as undefined are left out', () => {
    expect(checkTlsOptions({ ca: BYTES, cert: undefined, extra: undefined })).toStrictEqual({ ca: BYTES });
  });

  it('a Node Buffer counts as bytes', () => {
    const cert = Buffer.from(PEM);
    expect(checkTlsOptions({ cert, key: KEY })).toStrictEqual({ cert, key: KEY });
  });
});
