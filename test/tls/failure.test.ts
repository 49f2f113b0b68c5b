// tlsFailure and TlsConnectionError without a server: every code a TLS failure can carry gets its
// words, wherever in the cause chain fetch hid it; a failure that is not TLS is left alone.
import { describe, expect, it } from 'vitest';
import {
  incurableTls,
  PERMANENT_TLS_KINDS,
  tlsFailure,
  tlsFailureKind,
  TlsConnectionError,
} from '../../src/tls/failure.js';

const coded = (code: unknown, cause?: unknown) =>
  Object.assign(new Error('boom', cause === undefined ? {} : { cause }), { code });
/** What Node's fetch rejects with: `TypeError: fetch failed`, the reason in `cause`. */
const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause });

// Each known code's kind, as the rule of src/tls/failure.ts states it.
const KINDS: Record<string, string> = {
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: 'client-certificate',
  ERR_SSL_TLSV1_ALERT_UNKNOWN_CA: 'client-certificate',
  ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: 'client-certificate',
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED: 'client-certificate',
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN: 'client-certificate',
  ERR_SSL_TLSV1_ALERT_ACCESS_DENIED: 'client-certificate',
  ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE: 'negotiation',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'server-certificate',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'server-certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'server-certificate',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'server-certificate',
  CERT_HAS_EXPIRED: 'server-certificate',
  CERT_NOT_YET_VALID: 'server-certificate',
  ERR_TLS_CERT_ALTNAME_INVALID: 'server-certificate',
};

describe('tlsFailure names each known code', () => {
  it.each([
    [
      'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
      'the server requires a client certificate and none was sent (set tls.cert and tls.key, or tls.pfx)',
    ],
    ['ERR_SSL_TLSV1_ALERT_UNKNOWN_CA', 'the server does not trust the authority that issued the client certificate'],
    ['ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE', 'the server refused the client certificate'],
    ['ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED', 'the server refused the client certificate as expired'],
    ['ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN', 'the server refused the client certificate'],
    ['ERR_SSL_TLSV1_ALERT_ACCESS_DENIED', 'the server denied access to the client certificate'],
    [
      'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
      'the TLS handshake failed (no common protocol or cipher, or a refused certificate)',
    ],
    [
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      "the server's certificate is not signed by a trusted authority (set tls.ca for a private one)",
    ],
    [
      'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
      "the server's certificate is not signed by a trusted authority (set tls.ca for a private one)",
    ],
    [
      'SELF_SIGNED_CERT_IN_CHAIN',
      "the server's certificate chain ends in an untrusted authority (set tls.ca for a private one)",
    ],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', "the server's certificate is self-signed and not trusted (set tls.ca)"],
    ['CERT_HAS_EXPIRED', "the server's certificate has expired"],
    ['CERT_NOT_YET_VALID', "the server's certificate is not valid yet"],
    ['ERR_TLS_CERT_ALTNAME_INVALID', "the server's certificate does not name the host that was called"],
  ])('%s', (code, reason) => {
    expect(tlsFailure(fetchFailed(coded(code)))).toStrictEqual({ code, reason, kind: KINDS[code] });
  });
});

describe('tlsFailure: other TLS codes, by their prefix', () => {
  it.each([
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'connection'],
    ['ERR_TLS_HANDSHAKE_TIMEOUT', 'connection'],
    ['CERT_REVOKED', 'server-certificate'],
    ['UNABLE_TO_DECRYPT_CERT_SIGNATURE', 'server-certificate'],
    ['SELF_SIGNED_SOMETHING_NEW', 'server-certificate'],
    ['DEPTH_ZERO_ANYTHING', 'server-certificate'],
    ['ERR_OSSL_EVP_BAD_DECRYPT', 'connection'],
  ])('%s is a TLS failure named by its code, of kind %s', (code, kind) => {
    expect(tlsFailure(coded(code))).toStrictEqual({ code, reason: `TLS failure (${code})`, kind });
  });

  it.each([
    'ECONNREFUSED',
    'UND_ERR_SOCKET',
    'ECONNRESET',
    'X_ERR_SSL_LOOKALIKE',
    'XCERT_HAS',
    'ERR_HTTP2_X',
    'toString',
    'constructor',
  ])('%s is not (the prefix must start the code)', (code) => {
    expect(tlsFailure(fetchFailed(coded(code)))).toBeUndefined();
  });
});

describe('tlsFailure walks the cause chain', () => {
  const chain = (length: number, innermost: unknown) => {
    let error: unknown = innermost;
    for (let i = 1; i < length; i += 1) error = new Error(`level ${i}`, { cause: error });
    return error;
  };

  it('finds a code on the error itself or up to six levels down, not deeper', () => {
    const tls = coded('CERT_HAS_EXPIRED');
    expect(tlsFailure(tls)?.code).toBe('CERT_HAS_EXPIRED');
    expect(tlsFailure(chain(6, tls))?.code).toBe('CERT_HAS_EXPIRED');
    expect(tlsFailure(chain(7, tls))).toBeUndefined();
  });

  it('the outermost TLS code wins', () => {
    expect(tlsFailure(coded('CERT_HAS_EXPIRED', coded('ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE')))?.code).toBe(
      'CERT_HAS_EXPIRED',
    );
  });

  it('skips codes that are not TLS, and codes that are not strings', () => {
    expect(tlsFailure(coded('ECONNRESET', coded(42, coded('CERT_NOT_YET_VALID'))))?.code).toBe('CERT_NOT_YET_VALID');
  });

  it('a plain cause object works as an Error does', () => {
    expect(tlsFailure({ cause: { code: 'CERT_HAS_EXPIRED' } })?.reason).toBe("the server's certificate has expired");
  });

  it('stops at anything that is not an object', () => {
    expect(tlsFailure(undefined)).toBeUndefined();
    expect(tlsFailure(null)).toBeUndefined();
    expect(tlsFailure('CERT_HAS_EXPIRED')).toBeUndefined();
    expect(tlsFailure(new Error('no code', { cause: 'CERT_HAS_EXPIRED' }))).toBeUndefined();
  });
});

describe('TlsConnectionError', () => {
  it('a TypeError naming the host, the reason and the code, with the original as cause', () => {
    const cause = fetchFailed(coded('CERT_HAS_EXPIRED'));
    const error = new TlsConnectionError(
      { code: 'CERT_HAS_EXPIRED', reason: "the server's certificate has expired", kind: 'server-certificate' },
      'api.example.com:8443',
      cause,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(error.name).toBe('TlsConnectionError');
    expect(error.message).toBe(
      "TLS connection to api.example.com:8443 failed: the server's certificate has expired (CERT_HAS_EXPIRED)",
    );
    expect(error.code).toBe('CERT_HAS_EXPIRED');
    expect(error.reason).toBe("the server's certificate has expired");
    expect(error.cause).toBe(cause);
    expect(error.kind).toBe('server-certificate');
    expect(error.incurable).toBe('server-certificate CERT_HAS_EXPIRED');
  });

  it('says nothing incurable of a failure another attempt may pass (a close only suggesting a refusal)', () => {
    const error = new TlsConnectionError(
      { code: 'CLIENT_CERT_REFUSED', reason: 'refused, most likely', kind: 'connection' },
      'api.example.com',
      undefined,
    );
    expect(error.incurable).toBeUndefined();
  });
});

describe('which TLS failures another attempt cannot cure: every kind but the connection itself', () => {
  it('the permanent kinds are the verdicts on the option, a certificate and the negotiation', () => {
    expect([...PERMANENT_TLS_KINDS].sort()).toEqual([
      'client-certificate',
      'negotiation',
      'option',
      'server-certificate',
    ]);
  });

  it.each([
    ['ERR_TLS_OPTION', 'option ERR_TLS_OPTION'],
    ['ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED', 'client-certificate ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED'],
    ['CLIENT_CERT_EXPIRED', 'client-certificate CLIENT_CERT_EXPIRED'],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'server-certificate SELF_SIGNED_CERT_IN_CHAIN'],
    ['CERT_REVOKED', 'server-certificate CERT_REVOKED'],
    ['ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE', 'negotiation ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE'],
    ['CLIENT_CERT_REFUSED', undefined],
    ['ERR_SSL_WRONG_VERSION_NUMBER', undefined],
    ['ERR_SSL_DECRYPTION_FAILED_OR_BAD_RECORD_MAC', undefined],
  ])('%s: %s', (code, incurable) => {
    expect(incurableTls({ code, kind: tlsFailureKind(code) })).toBe(incurable);
  });
});
