// What src/transport/failure.ts reads of a network failure's cause chain, each bound and condition pinned:
// the reason a failure gives of itself (its `code` beside its `reason`, a TLS failure), the chain as one
// text (each message once, with its code when the message lacks it, ending at the failure that names
// itself), and whether another attempt could end otherwise (`incurable`, anywhere in the chain).
import { describe, expect, it } from 'vitest';
import { BLOCKED_PORT_REASON, failureOf, incurable } from '../../src/transport/failure.js';

/** An error with `fields`, caused by `cause`. */
const failure = (message: string, fields: Record<string, unknown> = {}, cause?: unknown): Error =>
  Object.assign(new Error(message, cause === undefined ? {} : { cause }), fields);

/** `depth` plain errors wrapped around `inner` (depth 0: inner itself). */
const wrapped = (inner: unknown, depth: number): unknown =>
  depth === 0 ? inner : failure(`wrapper ${depth}`, {}, wrapped(inner, depth - 1));

const network = (error: unknown) => {
  const read = failureOf(error, undefined);
  if (read.kind !== 'network') throw new Error(`read as ${read.kind}`);
  return read;
};

describe('the reason a failure gives of itself', () => {
  it('is read only beside a code, from the first five links of the chain', () => {
    const tls = failure('tls said no', { code: 'CERT_HAS_EXPIRED', reason: 'the certificate expired' });
    expect(network(tls).reason).toBe('the certificate expired');
    expect(network(wrapped(tls, 4)).reason).toBe('the certificate expired');
    expect(network(wrapped(tls, 5)).reason).toBeUndefined();
    expect(network(failure('x', { reason: 'no code beside it' })).reason).toBeUndefined();
    expect(network(failure('x', { code: 'ECONNRESET' })).reason).toBeUndefined();
    expect(network(failure('x', { code: 'ECONNRESET', reason: 42 })).reason).toBeUndefined();
  });

  it('for a port fetch blocks ("bad port", no code), says what to do', () => {
    expect(network(failure('fetch failed', {}, failure('bad port'))).reason).toBe(BLOCKED_PORT_REASON);
    expect(BLOCKED_PORT_REASON).toBe(
      'a port that fetch never calls (the Fetch standard blocks it); serve the service on another port',
    );
    expect(network(failure('bad port', { code: 'EACCES' })).reason).toBeUndefined();
    expect(network(failure('a bad port')).reason).toBeUndefined();
  });
});

describe('the cause chain as one text', () => {
  it('is each message, with its code when the message does not name it, joined by ": "', () => {
    const chain = failure('fetch failed', {}, failure('connect ECONNREFUSED 127.0.0.1:1', { code: 'ECONNREFUSED' }));
    expect(network(chain).message).toBe('fetch failed: connect ECONNREFUSED 127.0.0.1:1');
    const unnamed = failure('fetch failed', {}, failure('other side closed', { code: 'UND_ERR_SOCKET' }));
    expect(network(unnamed).message).toBe('fetch failed: other side closed (UND_ERR_SOCKET)');
    expect(network('a string thrown').message).toBe('a string thrown');
  });

  it('reads four links at most', () => {
    expect(network(wrapped(failure('the root'), 3)).message).toBe('wrapper 3: wrapper 2: wrapper 1: the root');
    expect(network(wrapped(failure('the root'), 4)).message).toBe('wrapper 4: wrapper 3: wrapper 2: wrapper 1');
  });

  it('ends at the failure that names itself: its causes say nothing more, and its reason is said once', () => {
    const openssl = failure('error:1C800064:Provider routines::bad decrypt', { code: 'ERR_OSSL_BAD_DECRYPT' });
    const tls = failure(
      'tls.passphrase could not be used',
      { code: 'ERR_TLS_OPTION', reason: 'wrong passphrase' },
      openssl,
    );
    expect(network(failure('fetch failed', {}, tls)).message).toBe(
      'fetch failed: tls.passphrase could not be used (ERR_TLS_OPTION)',
    );
    // A reason alone (no code) does not end it, nor does a code alone.
    const reasoned = failure('connect failed', { reason: 'a reason without a code' }, failure('the socket'));
    expect(network(reasoned).message).toBe('connect failed: the socket');
    const coded = failure('connect failed', { code: 'ECONNRESET' }, failure('the socket'));
    expect(network(coded).message).toBe('connect failed (ECONNRESET): the socket');
  });
});

describe('incurable', () => {
  it('is the first non-empty `incurable` of the first five links', () => {
    const why = failure('tls', { incurable: 'option ERR_TLS_OPTION' });
    expect(incurable(why)).toBe('option ERR_TLS_OPTION');
    expect(incurable(wrapped(why, 4))).toBe('option ERR_TLS_OPTION');
    expect(incurable(wrapped(why, 5))).toBeUndefined();
    expect(incurable(failure('x', { incurable: '' }))).toBeUndefined();
    expect(incurable(failure('x', { incurable: true }))).toBeUndefined();
    expect(incurable(failure('x', { incurable: '' }, why))).toBe('option ERR_TLS_OPTION');
  });

  it('is a port fetch blocks, whose "bad port" has no code', () => {
    expect(incurable(failure('fetch failed', {}, failure('bad port')))).toBe('blocked port');
    expect(incurable(failure('bad port', { code: 'EACCES' }))).toBeUndefined();
    expect(incurable(failure('a bad port'))).toBeUndefined();
  });

  it('is nothing for what is not an object, and stops at a cause that is not one', () => {
    expect(incurable(undefined)).toBeUndefined();
    expect(incurable('incurable')).toBeUndefined();
    expect(incurable({ incurable: 'a plain object says so too' })).toBe('a plain object says so too');
    expect(incurable({ cause: 'bad port' })).toBeUndefined();
  });
});
