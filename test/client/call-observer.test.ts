// What a call reports, through the public entry (`client.on`), against a server of ours on
// 127.0.0.1: one event per attempt, response, retry and error, in that order, carrying what a log
// line needs and nothing secret; an answer cut off while it is read is a network failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BaasEvent, createBaasClient } from '../../src/index.js';
import { json, startFaultServer, type FaultServer } from '../support/fault-server.js';
import { fullUpdate, SECRET_TOKEN, VALID_ACCOUNT, VALID_CPF } from '../support/fixtures.js';

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());

describe('call observer', () => {
  it('sees attempt, response, retry, then the error; the token and the CPF never', async () => {
    let answered = 0;
    server.handle((_req, res) => {
      answered += 1;
      if (answered === 1)
        return json(res, 503, { type: 'about:blank', status: 503 }, { 'x-request-id': 'req-1', 'retry-after': '0' });
      // The second answer is cut off while it is read: the call ends on it, as a network failure.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"version":');
      setTimeout(() => res.destroy(), 20);
    });
    const events: BaasEvent[] = [];
    const client = createBaasClient({
      baseUrl: server.url,
      token: SECRET_TOKEN,
      // The answers come at once: neither the timer nor the elapsed-time budget is the subject here,
      // so both are far beyond what a loaded machine takes (1 s each let a late retry be given up).
      timeoutMs: 5_000,
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1, maxElapsedMs: 60_000, maxRetryAfterMs: 60_000 },
    });
    for (const type of ['request', 'response', 'retry', 'error'] as const) client.on(type, (e) => events.push(e));
    await expect(
      client.updateNaturalPerson({ account: VALID_ACCOUNT, documentNumber: VALID_CPF, body: fullUpdate() }),
    ).rejects.toThrow(/network failure/);
    expect(events.map((e) => e.type)).toEqual(['request', 'response', 'retry', 'request', 'response', 'error']);
    expect(events[1]).toMatchObject({
      operation: 'updateNaturalPerson',
      method: 'PUT',
      status: 503,
      attempt: 1,
      requestId: 'req-1',
    });
    expect(events[2]).toMatchObject({ waitMs: 0, reason: 'HTTP 503' });
    const text = JSON.stringify(events);
    expect(text).not.toContain(SECRET_TOKEN);
    expect(text).not.toContain(VALID_CPF);
    expect(text).toContain('DocumentNumber=*********25');
  });
});
