// Names the TLS problem behind a failed fetch. Node's fetch (undici) rejects with
// `TypeError: fetch failed` and hides the reason in `cause`; a user seeing only that cannot tell a
// missing client certificate from an untrusted server.
//
// Each failure has a kind, and the kind says whether another attempt of the same request could end
// otherwise: the errors of src/tls say it (`incurable`), and the one retry loop reads that
// (src/transport/failure.ts, pipeline.ts) before any retry decision. The rule:
// another attempt presents the same `tls` option, the same client certificate, and meets the same server
// certificate, so a verdict on any of these is given again; only the connection itself may fare better.
// - option: our `tls` option cannot be used (ERR_TLS_OPTION: a wrong passphrase, a key of another
//   certificate, PEM OpenSSL cannot read). Permanent: the option does not change between attempts.
// - client-certificate: the server's verdict on ours (an alert naming it), or ours has expired. Permanent.
// - server-certificate: our verdict on the server's (untrusted authority, expired, another host). Permanent.
// - negotiation: the two sides share no protocol version or cipher. Permanent: neither side's settings change.
// - connection: the TLS connection failed otherwise (a bad record, a reset mid-handshake), or a server
//   closed right after the handshake, which only suggests a refusal (CLIENT_CERT_REFUSED, watch.ts) and
//   may be a dropped connection. Not permanent: retried as any network failure is.

/** What a TLS failure is a verdict on; see the rule above for which kinds another attempt cannot cure. */
export type TlsFailureKind = 'option' | 'client-certificate' | 'server-certificate' | 'negotiation' | 'connection';

/** The kinds another attempt of the same request cannot cure (the rule above). */
export const PERMANENT_TLS_KINDS: ReadonlySet<TlsFailureKind> = new Set<TlsFailureKind>([
  'option',
  'client-certificate',
  'server-certificate',
  'negotiation',
]);

interface Known {
  kind: TlsFailureKind;
  /** The words of a failure whose code says it all; a failure found by watch.ts brings its own. */
  reason?: string;
}

const UNTRUSTED = "the server's certificate is not signed by a trusted authority (set tls.ca for a private one)";

/** Each code the package names, with its kind (one declaration) and, when the code says it all, its words. */
const KNOWN: Record<string, Known> = {
  ERR_TLS_OPTION: { kind: 'option' },
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: {
    kind: 'client-certificate',
    reason: 'the server requires a client certificate and none was sent (set tls.cert and tls.key, or tls.pfx)',
  },
  ERR_SSL_TLSV1_ALERT_UNKNOWN_CA: {
    kind: 'client-certificate',
    reason: 'the server does not trust the authority that issued the client certificate',
  },
  ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: {
    kind: 'client-certificate',
    reason: 'the server refused the client certificate',
  },
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED: {
    kind: 'client-certificate',
    reason: 'the server refused the client certificate as expired',
  },
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN: {
    kind: 'client-certificate',
    reason: 'the server refused the client certificate',
  },
  ERR_SSL_TLSV1_ALERT_ACCESS_DENIED: {
    kind: 'client-certificate',
    reason: 'the server denied access to the client certificate',
  },
  // Found by watch.ts: our certificate's end date is past, whatever the server's words were.
  CLIENT_CERT_EXPIRED: { kind: 'client-certificate' },
  // Found by watch.ts from a silent close: an inference, which a dropped connection would also make.
  CLIENT_CERT_REFUSED: { kind: 'connection' },
  ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE: {
    kind: 'negotiation',
    reason: 'the TLS handshake failed (no common protocol or cipher, or a refused certificate)',
  },
  ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION: { kind: 'negotiation' },
  ERR_SSL_UNSUPPORTED_PROTOCOL: { kind: 'negotiation' },
  ERR_SSL_NO_PROTOCOLS_AVAILABLE: { kind: 'negotiation' },
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: { kind: 'server-certificate', reason: UNTRUSTED },
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: { kind: 'server-certificate', reason: UNTRUSTED },
  SELF_SIGNED_CERT_IN_CHAIN: {
    kind: 'server-certificate',
    reason: "the server's certificate chain ends in an untrusted authority (set tls.ca for a private one)",
  },
  DEPTH_ZERO_SELF_SIGNED_CERT: {
    kind: 'server-certificate',
    reason: "the server's certificate is self-signed and not trusted (set tls.ca)",
  },
  CERT_HAS_EXPIRED: { kind: 'server-certificate', reason: "the server's certificate has expired" },
  CERT_NOT_YET_VALID: { kind: 'server-certificate', reason: "the server's certificate is not valid yet" },
  ERR_TLS_CERT_ALTNAME_INVALID: {
    kind: 'server-certificate',
    reason: "the server's certificate does not name the host that was called",
  },
};

export interface TlsFailure {
  /** The OpenSSL or Node code, e.g. ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED. */
  code: string;
  /** What went wrong, in words, with what to check. */
  reason: string;
  /** What the failure is a verdict on: whether another attempt could cure it (PERMANENT_TLS_KINDS). */
  kind: TlsFailureKind;
}

const TLS_CODE = /^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|SELF_SIGNED|DEPTH_ZERO|ERR_OSSL_)/;
// The codes of X.509 verification (OpenSSL's X509_V_ERR_* as Node names them): our verdict on the server's
// certificate, whichever one it is.
const VERIFY_CODE = /^(CERT_|UNABLE_TO_|SELF_SIGNED|DEPTH_ZERO|ERR_TLS_CERT_)/;

/** The kind of the failure that `code` names (a code the package does not list: by its family). */
export function tlsFailureKind(code: string): TlsFailureKind {
  return KNOWN[code]?.kind ?? (VERIFY_CODE.test(code) ? 'server-certificate' : 'connection');
}

/** Whether `code` names a TLS failure (a code of the package's own, or of OpenSSL's and Node's TLS families). */
const isTlsCode = (code: string): boolean => Object.hasOwn(KNOWN, code) || TLS_CODE.test(code);

/** The TLS failure somewhere in an error's cause chain, or undefined when the failure was not TLS. */
export function tlsFailure(error: unknown): TlsFailure | undefined {
  // A primitive in the chain has no code of its own and no cause: reading it ends the walk.
  for (let current: unknown = error, depth = 0; current && depth < 6; depth += 1) {
    const { code, reason } = current as { code?: unknown; reason?: unknown };
    if (typeof code === 'string' && isTlsCode(code)) {
      const words = KNOWN[code]?.reason ?? (typeof reason === 'string' && reason ? reason : `TLS failure (${code})`);
      return { code, reason: words, kind: tlsFailureKind(code) };
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * What a TLS failure says to the one retry loop (`incurable`, src/transport/failure.ts): why another attempt
 * cannot cure it, by the rule above, or undefined when it may.
 */
export const incurableTls = (failure: Pick<TlsFailure, 'kind' | 'code'>): string | undefined =>
  PERMANENT_TLS_KINDS.has(failure.kind) ? `${failure.kind} ${failure.code}` : undefined;

/**
 * What `createTlsFetch` rejects with on a TLS failure: still a TypeError, as fetch failures are, with
 * the code on top (where the client's `systemCode` finds it) and the reason in the message. The
 * original error stays as `cause`; none of them carries key material.
 */
export class TlsConnectionError extends TypeError {
  readonly code: string;
  readonly reason: string;
  readonly kind: TlsFailureKind;
  /** Why another attempt cannot cure it, when it cannot (the rule above); the retry loop reads it. */
  readonly incurable: string | undefined;
  constructor(failure: TlsFailure, host: string, cause: unknown) {
    super(`TLS connection to ${host} failed: ${failure.reason} (${failure.code})`, { cause });
    this.name = 'TlsConnectionError';
    this.code = failure.code;
    this.reason = failure.reason;
    this.kind = failure.kind;
    this.incurable = incurableTls(failure);
  }
}
