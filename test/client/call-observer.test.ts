// The call owner's observer seam (where logs and events plug in): one event per attempt, response,
// retry and error, in that order, carrying what a log line needs and nothing secret.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallEvent } from '../../src/call-events.js';
import { Call, type ClientState } from '../../src/client/call.js';
import { json, startFaultServer, type FaultServer } from '../support/fault-server.js';
import { SECRET_TOKEN, VALID_CPF } from '../support/fixtures.js';
import { Secrets } from '../../src/redact.js';

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());

describe('call observer', () => {
  it('sees attempt, response, retry, then the error; the token and the CPF never', async () => {
    server.handle((_req, res) =>
      json(res, 503, { type: 'about:blank', status: 503 }, { 'x-request-id': 'req-1', 'retry-after': '0' }),
    );
    const events: [string, CallEvent][] = [];
    const secrets = Secrets.of([SECRET_TOKEN]);
    const state: ClientState = {
      fetch: (url, init) => fetch(url, init),
      token: SECRET_TOKEN,
      authorization: `Bearer ${SECRET_TOKEN}`,
      secrets,
      remember: () => undefined,
      observer: {
        attempt: (e) => events.push(['attempt', e]),
        response: (e) => events.push(['response', e]),
        retry: (e) => events.push(['retry', e]),
        error: (e) => events.push(['error', e]),
      },
    };
    const url = `${server.url}/v2/api/baas-onboarding/account/natural-person?Account=1&DocumentNumber=${VALID_CPF}`;
    const call = new Call(
      state,
      { operation: 'updateNaturalPerson', method: 'PUT', url, headers: {} },
      // The answers come at once: neither the timer nor the elapsed-time budget is the subject here,
      // so both are far beyond what a loaded machine takes (1 s each let a late retry be given up).
      5_000,
      { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1, maxElapsedMs: 60_000, maxRetryAfterMs: 60_000, statuses: [503] },
      undefined,
    );
    await expect(
      call.run(async () => {
        throw new Error('the reader refuses');
      }),
    ).rejects.toThrow(/network failure/);
    expect(events.map(([kind]) => kind)).toEqual(['attempt', 'response', 'retry', 'attempt', 'response', 'error']);
    expect(events[1]![1]).toMatchObject({
      operation: 'updateNaturalPerson',
      method: 'PUT',
      status: 503,
      attempt: 1,
      requestId: 'req-1',
    });
    expect(events[2]![1]).toMatchObject({ waitMs: 0, reason: 'HTTP 503' });
    const text = JSON.stringify(events);
    expect(text).not.toContain(SECRET_TOKEN);
    expect(text).not.toContain(VALID_CPF);
    expect(text).toContain('DocumentNumber=*********25');
  });
});
