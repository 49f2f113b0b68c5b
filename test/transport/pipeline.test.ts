// The one retry loop (src/transport/pipeline.ts): it numbers the attempts, asks the retry rule, runs
// the policies around each attempt, waits with one wait, and keeps the last answer until the next
// attempt goes, so a policy that stops the retries leaves the caller that answer.
import { describe, expect, it } from 'vitest';
import { Attempt } from '../../src/transport/attempt.js';
import { type AttemptPolicy, NO_RETRY, type RetryRule, sendRequest } from '../../src/transport/pipeline.js';

const URL_ = 'https://api.test/v2/api/pix/keys';

/** Answers in order; each body records whether it was cancelled. */
function scripted(answers: (number | Error)[]) {
  const cancelled: number[] = [];
  let sent = 0;
  const fetch = async (): Promise<Response> => {
    const index = sent;
    sent += 1;
    const next = answers[index] ?? 200;
    if (next instanceof Error) throw next;
    const body = new ReadableStream({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode(`answer ${index}`));
        controller.close();
      },
      cancel() {
        cancelled.push(index);
      },
    });
    return new Response(next === 204 ? null : body, { status: next });
  };
  const open = () =>
    new Attempt({ fetch, url: URL_, init: { method: 'GET' }, timeoutMs: 5_000, maxResponseBytes: 1_000 });
  return {
    open,
    cancelled,
    get sent() {
      return sent;
    },
  };
}

const on503: RetryRule = ({ response, attempt }) =>
  response?.status === 503 && attempt < 5 ? { waitMs: 10, reason: 'HTTP 503' } : undefined;
const noWait = async () => undefined;

describe('sendRequest', () => {
  it('retries as the rule says, numbering the attempts, and drops each answer it retried', async () => {
    const wire = scripted([503, 503, 200]);
    const seen: number[] = [];
    const waits: number[] = [];
    const sent = await sendRequest({
      open: wire.open,
      retry: on503,
      wait: async (ms) => void waits.push(ms),
      policies: [{ after: ({ attempt, response }) => seen.push(attempt * 1000 + (response?.status ?? 0)) }],
    });
    expect(sent.response.status).toBe(200);
    expect(sent.attempts).toBe(3);
    expect(seen).toEqual([1503, 2503, 3200]);
    expect(waits).toEqual([10, 10]);
    expect(wire.cancelled).toEqual([0, 1]);
    expect(await sent.attempt.readText(sent.response)).toBe('answer 2');
    sent.attempt.end();
  });

  it('with NO_RETRY sends once and gives back the answer, whatever its status', async () => {
    const wire = scripted([503]);
    const sent = await sendRequest({ open: wire.open, retry: NO_RETRY });
    expect([sent.response.status, wire.sent]).toEqual([503, 1]);
    sent.attempt.end();
  });

  it('rethrows the last failure when the rule gives up', async () => {
    const failure = new TypeError('fetch failed');
    const wire = scripted([failure, failure]);
    const rule: RetryRule = ({ error, attempt }) =>
      error && attempt < 2 ? { waitMs: 0, reason: 'network' } : undefined;
    await expect(sendRequest({ open: wire.open, retry: rule, wait: noWait })).rejects.toBe(failure);
    expect(wire.sent).toBe(2);
  });

  it("runs each policy's before ahead of every attempt, retries included", async () => {
    const wire = scripted([503, 503, 200]);
    const before: number[] = [];
    await sendRequest({
      open: wire.open,
      retry: on503,
      wait: noWait,
      policies: [{ before: (attempt) => void before.push(attempt) }],
    });
    expect(before).toEqual([1, 2, 3]);
  });

  it("a policy's refusal before the first attempt is the request's error, and nothing is sent", async () => {
    const wire = scripted([200]);
    const refusal = new Error('budget used up');
    const policy: AttemptPolicy = {
      before: () => {
        throw refusal;
      },
    };
    await expect(sendRequest({ open: wire.open, retry: on503, policies: [policy] })).rejects.toBe(refusal);
    expect(wire.sent).toBe(0);
  });

  it("a policy's stop during the wait ends the retries: the answer being retried is the final one, body intact", async () => {
    const wire = scripted([503, 200]);
    const stop = new AbortController();
    const sent = await sendRequest({
      open: wire.open,
      retry: on503,
      policies: [{ stop: stop.signal }],
      wait: (_ms, signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason));
          stop.abort();
        }),
    });
    expect([sent.response.status, sent.attempts, wire.sent]).toEqual([503, 1, 1]);
    expect(await sent.attempt.readText(sent.response)).toBe('answer 0');
    sent.attempt.end();
  });

  it('a policy stopped before a retry goes leaves the last answer too (its before refused it)', async () => {
    const wire = scripted([503, 200]);
    const stop = new AbortController();
    const sent = await sendRequest({
      open: wire.open,
      retry: on503,
      wait: noWait,
      policies: [
        {
          stop: stop.signal,
          before: (attempt) => {
            if (attempt === 2) {
              stop.abort();
              stop.signal.throwIfAborted();
            }
          },
        },
      ],
    });
    expect([sent.response.status, wire.sent]).toEqual([503, 1]);
    sent.attempt.end();
  });

  it("a refusal before a retry that is not a stop is the request's error, and the held answer is dropped", async () => {
    const wire = scripted([503, 200]);
    const refusal = new Error('limiter down');
    const error = await sendRequest({
      open: wire.open,
      retry: on503,
      wait: noWait,
      policies: [
        {
          before: (attempt) => {
            if (attempt === 2) throw refusal;
          },
        },
      ],
    }).catch((caught: unknown) => caught);
    expect(error).toBe(refusal);
    expect(wire.cancelled).toEqual([0]);
  });

  it("the caller's abort during a wait rejects with its reason and drops the held answer", async () => {
    const wire = scripted([503, 200]);
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const error = await sendRequest({
      open: wire.open,
      retry: on503,
      signal: controller.signal,
      wait: (_ms, signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason));
          controller.abort(reason);
        }),
    }).catch((caught: unknown) => caught);
    expect(error).toBe(reason);
    expect(wire.cancelled).toEqual([0]);
    expect(wire.sent).toBe(1);
  });
});
