// Names the TLS problem behind a failed fetch. Node's fetch (undici) rejects with
// `TypeError: fetch failed` and hides the reason in `cause`; a user seeing only that cannot tell a
// missing client certificate from an untrusted server.

const REASONS: Record<string, string> = {
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED:
    'the server requires a client certificate and none was sent (set tls.cert and tls.key, or tls.pfx)',
  ERR_SSL_TLSV1_ALERT_UNKNOWN_CA: 'the server does not trust the authority that issued the client certificate',
  ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: 'the server refused the client certificate',
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED: 'the server refused the client certificate as expired',
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN: 'the server refused the client certificate',
  ERR_SSL_TLSV1_ALERT_ACCESS_DENIED: 'the server denied access to the client certificate',
  ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE:
    'the TLS handshake failed (no common protocol or cipher, or a refused certificate)',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    "the server's certificate is not signed by a trusted authority (set tls.ca for a private one)",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    "the server's certificate is not signed by a trusted authority (set tls.ca for a private one)",
  SELF_SIGNED_CERT_IN_CHAIN:
    "the server's certificate chain ends in an untrusted authority (set tls.ca for a private one)",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's certificate is self-signed and not trusted (set tls.ca)",
  CERT_HAS_EXPIRED: "the server's certificate has expired",
  CERT_NOT_YET_VALID: "the server's certificate is not valid yet",
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's certificate does not name the host that was called",
};

export interface TlsFailure {
  /** The OpenSSL or Node code, e.g. ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED. */
  code: string;
  /** What went wrong, in words, with what to check. */
  reason: string;
}

const TLS_CODE = /^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|SELF_SIGNED|DEPTH_ZERO|ERR_OSSL_)/;

/** The TLS failure somewhere in an error's cause chain, or undefined when the failure was not TLS. */
export function tlsFailure(error: unknown): TlsFailure | undefined {
  for (let current: unknown = error, depth = 0; current && typeof current === 'object' && depth < 6; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (Object.hasOwn(REASONS, code) || TLS_CODE.test(code))) {
      return { code, reason: REASONS[code] ?? `TLS failure (${code})` };
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * What `createTlsFetch` rejects with on a TLS failure: still a TypeError, as fetch failures are, with
 * the code on top (where the client's `systemCode` finds it) and the reason in the message. The
 * original error stays as `cause`; none of them carries key material.
 */
export class TlsConnectionError extends TypeError {
  readonly code: string;
  readonly reason: string;
  constructor(failure: TlsFailure, host: string, cause: unknown) {
    super(`TLS connection to ${host} failed: ${failure.reason} (${failure.code})`, { cause });
    this.name = 'TlsConnectionError';
    this.code = failure.code;
    this.reason = failure.reason;
  }
}
