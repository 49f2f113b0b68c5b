// A failure another attempt of the same request cannot cure ends the one retry loop at the first attempt,
// whatever the retry rule would say (src/transport/failure.ts, `incurable`): a header fetch refuses to
// send (the caller's input, named, never its value: a BaasValidationError, nothing sent), a TLS failure
// that says so (src/tls/failure.ts), a port fetch blocks. Any other failure is the retry rule's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBaasClient } from '../../src/index.js';
import { type FaultServer, startFaultServer } from '../support/fault-server.js';
import { Secrets } from '../../src/redact.js';
import { Attempt, HeaderRefused } from '../../src/transport/attempt.js';
import { clientError, failureOf, incurable } from '../../src/transport/failure.js';
import { type RetryRule, sendRequest } from '../../src/transport/pipeline.js';

// A token holding a long dash (U+2014), as one pasted from a document does: fetch cannot send it.
const DASHED = 'sbx_abc\u2014def123';

let server: FaultServer;
let url: string;
/** The requests the server has received (the fault server counts them). */
const requests = () => server.requests.length;

beforeAll(async () => {
  server = await startFaultServer();
  server.handle((_request, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[]}'),
  );
  url = server.url;
});
afterAll(() => server?.close());

describe('a header fetch cannot send', () => {
  it("through createBaasClient, a token's header is refused before any attempt (the token text rule), not retried", async () => {
    const before = requests();
    const baas = createBaasClient({ baseUrl: url, token: () => DASHED, retry: { baseDelayMs: 0, maxDelayMs: 0 } });
    const error = (await baas.listPixKeys().then(
      () => expect.unreachable('the call succeeded'),
      (thrown: unknown) => thrown,
    )) as Error & { attempts?: number };
    expect(error.message).not.toContain('abc');
    expect(error.message).not.toContain('ByteString');
    expect(error.attempts ?? 0).toBeLessThanOrEqual(1);
    expect(requests()).toBe(before);
  });

  it("reaching fetch, it is the caller's input: a BaasValidationError naming the header, never its value", async () => {
    const sent = new Attempt({
      fetch: globalThis.fetch,
      url,
      init: { method: 'GET', headers: { Authorization: `Bearer ${DASHED}` } },
      timeoutMs: 5_000,
      maxResponseBytes: 1_000,
    });
    const thrown = await sent.send().catch((e: unknown) => e);
    sent.end();
    const error = clientError(failureOf(thrown, sent), {
      operation: 'listPixKeys',
      attempts: 1,
      secrets: Secrets.none,
    }) as Error & {
      kind?: string;
      attempts?: number;
      issues?: { path: string; rule: string }[];
    };
    expect(error.name).toBe('BaasValidationError');
    expect(error.kind).toBe('validation');
    expect(error.issues?.map((issue) => issue.path)).toEqual(['Authorization']);
    expect(error.message).toBe(
      'listPixKeys: invalid input, 1 problem, nothing was sent: header Authorization has a value with a character an HTTP header cannot carry (a line break, a NUL, or one past U+00FF such as a curly quote, a long dash or an emoji)',
    );
    expect(error.attempts).toBe(0);
  });
});

describe('Attempt.send names the header fetch refused', () => {
  const attempt = (headers: Record<string, string>) =>
    new Attempt({
      fetch: globalThis.fetch,
      url,
      init: { method: 'GET', headers },
      timeoutMs: 5_000,
      maxResponseBytes: 1_000,
    });

  it("a value past U+00FF, or holding a line break: HeaderRefused with the header, fetch's error as cause", async () => {
    for (const value of ['a\u2014b', 'one\ntwo']) {
      const sent = attempt({ Accept: 'application/json', 'X-Trace': value });
      const error = await sent.send().then(
        () => expect.unreachable('sent'),
        (thrown: unknown) => thrown,
      );
      sent.end();
      expect(error).toBeInstanceOf(HeaderRefused);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as HeaderRefused).header).toBe('X-Trace');
      expect((error as Error).message).not.toContain(value);
      expect((error as Error).cause).toBeInstanceOf(TypeError);
      expect(incurable(error)).toBe('header X-Trace refused');
    }
  });

  it("another TypeError of fetch goes as it came, and is the retry rule's to weigh", async () => {
    const refusing = new Attempt({
      fetch: async () => {
        throw new TypeError('fetch failed', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) });
      },
      url,
      init: { method: 'GET', headers: { Accept: 'application/json' } },
      timeoutMs: 5_000,
      maxResponseBytes: 1_000,
    });
    const error = await refusing.send().catch((thrown: unknown) => thrown);
    refusing.end();
    expect(error).not.toBeInstanceOf(HeaderRefused);
    expect((error as Error).message).toBe('fetch failed');
    expect(incurable(error)).toBeUndefined();
  });
});

describe('the one retry loop asks no retry rule of an incurable failure', () => {
  const always: RetryRule = () => ({ waitMs: 0, reason: 'always' });

  async function attemptsUntil(failure: Error): Promise<number> {
    let opened = 0;
    await sendRequest({
      open: () => {
        opened += 1;
        return new Attempt({
          fetch: async () => {
            throw failure;
          },
          url,
          init: { method: 'GET' },
          timeoutMs: 5_000,
          maxResponseBytes: 1_000,
        });
      },
      retry: (tried, elapsed) => (opened < 3 ? always(tried, elapsed) : undefined),
    }).catch(() => undefined);
    return opened;
  }

  it.each([
    [
      'a failure that says it is incurable (a TLS option that cannot be used)',
      Object.assign(new TypeError('x'), { code: 'ERR_TLS_OPTION', incurable: 'option ERR_TLS_OPTION' }),
      1,
    ],
    [
      'the same, in the cause chain',
      new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { incurable: 'client-certificate X' }) }),
      1,
    ],
    ['a port fetch blocks', new TypeError('fetch failed', { cause: new Error('bad port') }), 1],
    [
      'a reset connection',
      new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }) }),
      3,
    ],
    [
      'a TLS failure that does not say so (a close that only suggests a refusal)',
      Object.assign(new TypeError('x'), { code: 'CLIENT_CERT_REFUSED', incurable: undefined }),
      3,
    ],
  ])('%s: %i attempt(s)', async (_name, failure, attempts) => {
    expect(await attemptsUntil(failure)).toBe(attempts);
  });
});
