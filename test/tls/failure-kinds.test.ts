// The kind of each TLS failure the package names (src/tls/failure.ts), which decides whether another
// attempt could cure it: the codes of the handshake's outcome each pinned to their kind, the families of
// codes the package does not list read by their prefix, and the cause chain read for the first TLS code.
import { describe, expect, it } from 'vitest';
import { incurableTls, tlsFailure, tlsFailureKind } from '../../src/tls/failure.js';

describe('the kind of a TLS code', () => {
  it.each([
    ['ERR_TLS_OPTION', 'option'],
    ['CLIENT_CERT_EXPIRED', 'client-certificate'],
    ['ERR_SSL_TLSV1_ALERT_ACCESS_DENIED', 'client-certificate'],
    ['CLIENT_CERT_REFUSED', 'connection'],
    ['ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE', 'negotiation'],
    ['ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION', 'negotiation'],
    ['ERR_SSL_UNSUPPORTED_PROTOCOL', 'negotiation'],
    ['ERR_SSL_NO_PROTOCOLS_AVAILABLE', 'negotiation'],
    ['CERT_HAS_EXPIRED', 'server-certificate'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'server-certificate'],
    // Not listed: by family. X.509 verification codes begin so; anything else is the connection's.
    ['CERT_REVOKED', 'server-certificate'],
    ['UNABLE_TO_DECRYPT_CERT_SIGNATURE', 'server-certificate'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'connection'],
    ['ERR_SSL_BAD_CERT_LENGTH', 'connection'],
    ['ERR_OSSL_SOMETHING_CERT_', 'connection'],
  ])('%s is %s', (code, kind) => {
    expect(tlsFailureKind(code)).toBe(kind);
    expect(tlsFailure({ code })?.kind).toBe(kind);
  });

  it('is incurable when its kind is permanent, saying the kind and the code', () => {
    expect(incurableTls({ kind: 'negotiation', code: 'ERR_SSL_UNSUPPORTED_PROTOCOL' })).toBe(
      'negotiation ERR_SSL_UNSUPPORTED_PROTOCOL',
    );
    expect(incurableTls({ kind: 'connection', code: 'CLIENT_CERT_REFUSED' })).toBeUndefined();
  });
});

describe('the TLS failure in a cause chain', () => {
  it("takes the first TLS code's reason: the package's words for a listed code, else the failure's own, else the code", () => {
    expect(tlsFailure({ code: 'CERT_HAS_EXPIRED', reason: 'ignored: the package has words' })?.reason).toBe(
      "the server's certificate has expired",
    );
    expect(tlsFailure({ code: 'ERR_SSL_SOMETHING_NEW', reason: 'what the failure said' })?.reason).toBe(
      'what the failure said',
    );
    expect(tlsFailure({ code: 'ERR_SSL_SOMETHING_NEW', reason: '' })?.reason).toBe(
      'TLS failure (ERR_SSL_SOMETHING_NEW)',
    );
    expect(tlsFailure({ code: 'ERR_SSL_SOMETHING_NEW', reason: 42 })?.reason).toBe(
      'TLS failure (ERR_SSL_SOMETHING_NEW)',
    );
  });

  it('walks six links, past codes that are not TLS, and stops at a cause that is not an object', () => {
    const deep = (depth: number): unknown =>
      depth === 0 ? { code: 'CERT_HAS_EXPIRED' } : { code: 'ECONNRESET', cause: deep(depth - 1) };
    expect(tlsFailure(deep(5))?.code).toBe('CERT_HAS_EXPIRED');
    expect(tlsFailure(deep(6))).toBeUndefined();
    expect(tlsFailure({ cause: 'CERT_HAS_EXPIRED' })).toBeUndefined();
    expect(tlsFailure(Object.assign('CERT_HAS_EXPIRED', {}))).toBeUndefined();
    expect(tlsFailure(undefined)).toBeUndefined();
  });
});
