// tlsFailure and TlsConnectionError without a server: every code a TLS failure can carry gets its
// words, wherever in the cause chain fetch hid it; a failure that is not TLS is left alone.
import { describe, expect, it } from 'vitest';
import { tlsFailure, TlsConnectionError } from '../../src/tls/failure.js';

const coded = (code: unknown, cause?: unknown) =>
  Object.assign(new Error('boom', cause === undefined ? {} : { cause }), { code });
/** What Node's fetch rejects with: `TypeError: fetch failed`, the reason in `cause`. */
const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause });

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
    expect(tlsFailure(fetchFailed(coded(code)))).toStrictEqual({ code, reason });
  });
});

describe('tlsFailure: other TLS codes, by their prefix', () => {
  it.each([
    'ERR_SSL_WRONG_VERSION_NUMBER',
    'ERR_TLS_HANDSHAKE_TIMEOUT',
    'CERT_REVOKED',
    'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
    'SELF_SIGNED_SOMETHING_NEW',
    'DEPTH_ZERO_ANYTHING',
    'ERR_OSSL_EVP_BAD_DECRYPT',
  ])('%s is a TLS failure named by its code', (code) => {
    expect(tlsFailure(coded(code))).toStrictEqual({ code, reason: `TLS failure (${code})` });
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
      { code: 'CERT_HAS_EXPIRED', reason: "the server's certificate has expired" },
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
  });
});
