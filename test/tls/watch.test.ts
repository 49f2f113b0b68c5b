// SocketWatch with fake TLS sockets: what a failed fetch's socket tells (an alert code, or a fresh
// connection closed right after presenting a certificate, expired or not), found by the local port
// undici's SocketError reports, anywhere in the cause chain.
import { EventEmitter } from 'node:events';
import type { TLSSocket } from 'node:tls';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { redactText } from '../../src/redact.js';
import { isoDate, SocketWatch } from '../../src/tls/watch.js';

interface FakeSocket extends EventEmitter {
  localPort: number | undefined;
  readableLength: number;
  getCertificate(): object | null;
}

function fakeSocket(localPort: number | undefined, certificate: object | null = null): FakeSocket {
  return Object.assign(new EventEmitter(), { localPort, readableLength: 0, getCertificate: () => certificate });
}

const watch = (watcher: SocketWatch, socket: FakeSocket) => watcher.watch(socket as unknown as TLSSocket);

/** What undici rejects with when the server closes: `fetch failed` caused by a SocketError with the socket's ports. */
const closed = (localPort: unknown) =>
  new TypeError('fetch failed', {
    cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET', socket: { localPort } }),
  });

const CERT = { valid_to: 'Jan  2 00:00:00 2030 GMT', issuer: { CN: 'test-ca', O: 'Test Org' } };

afterEach(() => {
  vi.useRealTimers();
});

describe('SocketWatch.explain', () => {
  it('an alert the socket emitted is reported by its code, to be worded from the table', () => {
    const watcher = new SocketWatch();
    const socket = fakeSocket(50_001, CERT);
    watch(watcher, socket);
    socket.emit('error', Object.assign(new Error('alert'), { code: 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED' }));
    expect(watcher.explain(closed(50_001))).toStrictEqual({
      code: 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
      reason: '',
      kind: 'client-certificate',
    });
  });

  it('an ERR_TLS_ error counts too; any other socket error does not', () => {
    const watcher = new SocketWatch();
    const tls = fakeSocket(50_002);
    const reset = fakeSocket(50_003);
    const numeric = fakeSocket(50_004);
    const lookalike = fakeSocket(50_005);
    for (const socket of [tls, reset, numeric, lookalike]) watch(watcher, socket);
    tls.emit('error', Object.assign(new Error('x'), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }));
    reset.emit('error', Object.assign(new Error('x'), { code: 'ECONNRESET' }));
    numeric.emit('error', Object.assign(new Error('x'), { code: 42 }));
    lookalike.emit('error', Object.assign(new Error('x'), { code: 'X_ERR_SSL_' }));
    expect(watcher.explain(closed(50_002))).toStrictEqual({
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
      reason: '',
      kind: 'server-certificate',
    });
    // No certificate was presented on these, so a close tells nothing.
    expect(watcher.explain(closed(50_003))).toBeUndefined();
    expect(watcher.explain(closed(50_004))).toBeUndefined();
    expect(watcher.explain(closed(50_005))).toBeUndefined();
  });

  it('only the first error of a socket is read', () => {
    const watcher = new SocketWatch();
    const socket = fakeSocket(50_006);
    watch(watcher, socket);
    socket.on('error', () => undefined);
    socket.emit('error', Object.assign(new Error('first'), { code: 'ECONNRESET' }));
    socket.emit('error', Object.assign(new Error('second'), { code: 'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE' }));
    expect(watcher.explain(closed(50_006))).toBeUndefined();
  });

  it('a fresh connection that presented a certificate and was closed: a likely refusal, naming the issuer', () => {
    const watcher = new SocketWatch();
    watch(watcher, fakeSocket(50_010, CERT));
    expect(watcher.explain(closed(50_010))).toStrictEqual({
      code: 'CLIENT_CERT_REFUSED',
      kind: 'connection',
      reason:
        'the server closed the connection right after the TLS handshake without answering, which is how a server refuses a client certificate under TLS 1.3: it most likely refused the client certificate (issued by test-ca); check that the server trusts this issuer',
    });
  });

  it.each([
    [{ O: 'Only Org' }, 'Only Org'],
    [{}, 'unknown issuer'],
    [undefined, 'unknown issuer'],
  ])('the issuer is its CN, else its O, else unknown (%o)', (issuer, named) => {
    const watcher = new SocketWatch();
    watch(watcher, fakeSocket(50_011, { valid_to: CERT.valid_to, issuer }));
    expect(watcher.explain(closed(50_011))?.reason).toContain(`(issued by ${named});`);
  });

  it('our certificate has expired: said so, with its date in ISO 8601 (which the CPF masking leaves alone)', () => {
    vi.useFakeTimers({ now: Date.parse('2030-01-02T00:00:01Z'), toFake: ['Date'] });
    const watcher = new SocketWatch();
    watch(watcher, fakeSocket(50_020, CERT));
    const explained = watcher.explain(closed(50_020));
    expect(explained).toStrictEqual({
      code: 'CLIENT_CERT_EXPIRED',
      reason: 'the client certificate expired on 2030-01-02T00:00:00.000Z, and the server closed the connection',
      kind: 'client-certificate',
    });
    // node:tls's own form ("Jan  2 00:00:00 2030 GMT") is what the masking took for a CPF.
    expect(redactText(explained!.reason)).toBe(explained!.reason);
    expect(redactText('expired on Jan  2 00:00:00 2030 GMT')).not.toBe('expired on Jan  2 00:00:00 2030 GMT');
  });

  it('a certificate valid to this very moment is not yet expired', () => {
    vi.useFakeTimers({ now: Date.parse('2030-01-02T00:00:00Z'), toFake: ['Date'] });
    const watcher = new SocketWatch();
    watch(watcher, fakeSocket(50_021, CERT));
    expect(watcher.explain(closed(50_021))?.code).toBe('CLIENT_CERT_REFUSED');
  });

  it.each([
    ['no certificate', null],
    ['a certificate object without valid_to', { issuer: { CN: 'x' } }],
    ['an empty valid_to', { valid_to: '', issuer: { CN: 'x' } }],
  ])('%s presented: a close tells nothing', (_name, certificate) => {
    const watcher = new SocketWatch();
    watch(watcher, fakeSocket(50_030, certificate));
    expect(watcher.explain(closed(50_030))).toBeUndefined();
  });

  it('a connection that has carried an answer is never blamed on the certificate', () => {
    const watcher = new SocketWatch();
    const socket = fakeSocket(50_040, CERT);
    watch(watcher, socket);
    // The end of the stream: 'readable' with nothing buffered changes nothing.
    socket.emit('readable');
    expect(watcher.explain(closed(50_040))?.code).toBe('CLIENT_CERT_REFUSED');

    watch(watcher, socket);
    socket.readableLength = 120;
    socket.emit('readable');
    expect(watcher.explain(closed(50_040))).toBeUndefined();
  });

  it('watching does not put the socket in flowing mode (no data listener)', () => {
    const socket = fakeSocket(50_041, CERT);
    watch(new SocketWatch(), socket);
    expect(socket.listenerCount('data')).toBe(0);
    expect(socket.listenerCount('readable')).toBe(1);
  });

  it('a record is used once: the same failure explained again tells nothing', () => {
    const watcher = new SocketWatch();
    watch(watcher, fakeSocket(50_050, CERT));
    expect(watcher.explain(closed(50_050))?.code).toBe('CLIENT_CERT_REFUSED');
    expect(watcher.explain(closed(50_050))).toBeUndefined();
  });

  it('a new socket on a reused port replaces the old record', () => {
    const watcher = new SocketWatch();
    const old = fakeSocket(50_060, CERT);
    watch(watcher, old);
    old.emit('error', Object.assign(new Error('x'), { code: 'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE' }));
    watch(watcher, fakeSocket(50_060, CERT));
    expect(watcher.explain(closed(50_060))?.code).toBe('CLIENT_CERT_REFUSED');
  });

  it('finds the port anywhere in the first six errors of the chain, and only as a number', () => {
    const watcher = new SocketWatch();
    watch(watcher, fakeSocket(50_070, CERT));
    expect(watcher.explain(closed('50070'))).toBeUndefined();
    expect(watcher.explain({ socket: null, cause: { socket: {} } })).toBeUndefined();
    let deep: unknown = closed(50_070);
    for (let i = 0; i < 5; i += 1) deep = new Error(`wrapped ${i}`, { cause: deep });
    // closed() is two levels; five more make seven: the port is out of reach.
    expect(watcher.explain(deep)).toBeUndefined();
    let reachable: unknown = closed(50_070);
    for (let i = 0; i < 4; i += 1) reachable = new Error(`wrapped ${i}`, { cause: reachable });
    expect(watcher.explain(reachable)?.code).toBe('CLIENT_CERT_REFUSED');
  });

  it('an error without a socket, a socket without a port, or an unknown port tells nothing', () => {
    const watcher = new SocketWatch();
    watch(watcher, fakeSocket(undefined, CERT));
    watch(watcher, fakeSocket(50_080, CERT));
    expect(watcher.explain(new TypeError('fetch failed', { cause: new Error('ECONNREFUSED') }))).toBeUndefined();
    expect(watcher.explain(undefined)).toBeUndefined();
    expect(watcher.explain('fetch failed')).toBeUndefined();
    expect(watcher.explain(closed(50_081))).toBeUndefined();
    expect(watcher.explain(closed(50_080))?.code).toBe('CLIENT_CERT_REFUSED');
  });

  it('keeps the last 256 sockets: the oldest is forgotten first', () => {
    const watcher = new SocketWatch();
    for (let port = 40_000; port < 40_257; port += 1) watch(watcher, fakeSocket(port, CERT));
    expect(watcher.explain(closed(40_000))).toBeUndefined();
    expect(watcher.explain(closed(40_001))?.code).toBe('CLIENT_CERT_REFUSED');
    expect(watcher.explain(closed(40_256))?.code).toBe('CLIENT_CERT_REFUSED');
  });

  it('a socket without a local port takes no place among the 256', () => {
    const watcher = new SocketWatch();
    for (let port = 40_000; port < 40_256; port += 1) watch(watcher, fakeSocket(port, CERT));
    watch(watcher, fakeSocket(undefined, CERT));
    expect(watcher.explain(closed(40_000))?.code).toBe('CLIENT_CERT_REFUSED');
  });

  it('a re-watched port counts as the newest', () => {
    const watcher = new SocketWatch();
    for (let port = 40_000; port < 40_256; port += 1) watch(watcher, fakeSocket(port, CERT));
    watch(watcher, fakeSocket(40_000, CERT));
    watch(watcher, fakeSocket(40_256, CERT));
    expect(watcher.explain(closed(40_000))?.code).toBe('CLIENT_CERT_REFUSED');
    expect(watcher.explain(closed(40_001))).toBeUndefined();
  });
});

describe('isoDate: how src/tls prints a date', () => {
  it('ISO 8601 in UTC, and words for a date that could not be read', () => {
    expect(isoDate(Date.parse('Feb  1 00:00:00 2020 GMT'))).toBe('2020-02-01T00:00:00.000Z');
    expect(isoDate(Number.NaN)).toBe('an unreadable date');
  });
});
