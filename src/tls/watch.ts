// Watches the TLS sockets of one agent, so a failed fetch can say why. With TLS 1.3 the server checks
// the client certificate after the client thinks the handshake is done: a server that refuses it
// either sends an alert (which undici reports only as "other side closed") or, like Node's own
// https server, just closes. Either way the request fails with UND_ERR_SOCKET and nothing about TLS.
// Keyed by local port, which undici's SocketError reports.
// An alert code is certain. A silent close is an inference: a fresh connection that presented a
// certificate and was closed before any answer is reported as a likely refusal (CLIENT_CERT_REFUSED,
// or CLIENT_CERT_EXPIRED when our certificate has expired); a server that drops a fresh connection
// for another reason gets the same words, hedged. A connection that has carried an answer never does.
import type { TLSSocket } from 'node:tls';
import { tlsFailureKind, type TlsFailure } from './failure.js';

interface SocketRecord {
  /** The TLS error the socket emitted, e.g. ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED. */
  tlsCode?: string;
  /** Our certificate as sent, when one was: its issuer, and its end date (ms since the epoch). */
  ownCert?: { issuer: string; validTo: number };
  /** Whether any response data arrived on it. */
  gotData: boolean;
}

const MAX_RECORDS = 256;

export class SocketWatch {
  private readonly records = new Map<number, SocketRecord>();

  watch(socket: TLSSocket): void {
    const record: SocketRecord = { gotData: false };
    // undici's connector hands the socket over once the handshake is done (as the client sees it).
    const local = socket.localPort;
    if (local !== undefined) {
      this.records.delete(local);
      this.records.set(local, record);
      if (this.records.size > MAX_RECORDS) this.records.delete(this.records.keys().next().value as number);
    }
    const own = socket.getCertificate();
    if (own && 'valid_to' in own && own.valid_to) {
      const issuer = own.issuer as unknown as Record<string, string> | undefined;
      // node:tls writes the date its own way ("Feb  1 00:00:00 2020 GMT");
      // read once here, printed only as ISO 8601 (isoDate).
      record.ownCert = { issuer: issuer?.CN ?? issuer?.O ?? 'unknown issuer', validTo: Date.parse(own.valid_to) };
    }
    // A 'readable' listener, not 'data': 'data' would switch the socket to flowing mode before undici
    // attaches its own 'readable' reader. At the end of the stream 'readable' fires with nothing buffered.
    socket.on('readable', () => {
      if (socket.readableLength > 0) record.gotData = true;
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (typeof error.code === 'string' && /^ERR_SSL_|^ERR_TLS_/.test(error.code)) record.tlsCode = error.code;
    });
  }

  /** What the socket behind a failed fetch tells, when the failure was a closed socket. */
  explain(error: unknown): TlsFailure | undefined {
    const localPort = socketPort(error);
    if (localPort === undefined) return undefined;
    const record = this.records.get(localPort);
    if (!record) return undefined;
    this.records.delete(localPort);
    if (record.tlsCode) return { code: record.tlsCode, reason: '', kind: tlsFailureKind(record.tlsCode) };
    if (record.gotData) return undefined;
    // `validTo` is our own certificate's end date as node:tls wrote it, not an HTTP date and nothing a
    // provider sends: Retry-After has its one reading in src/transport/retry-after.ts.
    if (record.ownCert && record.ownCert.validTo < Date.now()) {
      return {
        code: 'CLIENT_CERT_EXPIRED',
        reason: `the client certificate expired on ${isoDate(record.ownCert.validTo)}, and the server closed the connection`,
        kind: tlsFailureKind('CLIENT_CERT_EXPIRED'),
      };
    }
    if (record.ownCert) {
      return {
        code: 'CLIENT_CERT_REFUSED',
        kind: tlsFailureKind('CLIENT_CERT_REFUSED'),
        reason: `the server closed the connection right after the TLS handshake without answering, which is how a server refuses a client certificate under TLS 1.3: it most likely refused the client certificate (issued by ${record.ownCert.issuer}); check that the server trusts this issuer`,
      };
    }
    return undefined;
  }
}

/**
 * A date as messages print it: ISO 8601 in UTC (`2020-02-01T00:00:00.000Z`). node:tls's own form
 * ("Feb  1 00:00:00 2020 GMT") runs its digits together in a way the CPF masking of every message reads
 * as a CPF; ISO 8601's separators keep it a date. An unreadable date is said to be one.
 */
export const isoDate = (ms: number): string =>
  Number.isFinite(ms) ? new Date(ms).toISOString() : 'an unreadable date';

/** The local port in undici's SocketError (`error.socket.localPort`), anywhere in the cause chain. */
function socketPort(error: unknown): number | undefined {
  for (let current: unknown = error, depth = 0; current && typeof current === 'object' && depth < 6; depth += 1) {
    const info = (current as { socket?: { localPort?: unknown } }).socket;
    if (info && typeof info.localPort === 'number') return info.localPort;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
