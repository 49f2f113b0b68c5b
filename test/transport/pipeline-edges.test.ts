// The one retry loop's edges (src/transport/pipeline.ts), each a behaviour a mutation run found no
// test pinning: what a stop leaves when the last attempt failed, what a policy is handed before an
// attempt, a refusal before the first attempt, the attempt ended when its send throws, the caller's
// abort during a send and during a wait (the wait handed a signal that hears it, the held answer
// dropped), an answer without a body dropped, and a wait that fails for its own reason.
import { describe, expect, it, vi } from 'vitest';
import type { Attempt } from '../../src/transport/attempt.js';
import { type AttemptPolicy, type RetryRule, type Sleep, sendRequest } from '../../src/transport/pipeline.js';

/** An attempt whose send gives `answer` (or throws it); `ended` counts its end() calls. */
function fakeAttempt(answer: Response | Error | (() => Promise<Response>)) {
  const attempt = {
    ended: 0,
    end() {
      attempt.ended += 1;
    },
    async send(): Promise<Response> {
      if (typeof answer === 'function') return answer();
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return attempt;
}
const asAttempt = (fake: ReturnType<typeof fakeAttempt>) => fake as unknown as Attempt;
const always: RetryRule = () => ({ waitMs: 10, reason: 'again' });
const noWait: Sleep = async () => undefined;

describe('sendRequest: edges', () => {
  it('a stop during the wait after a failed attempt rejects with that failure (never resolves with no answer)', async () => {
    const failure = new TypeError('fetch failed');
    const stop = new AbortController();
    const policy: AttemptPolicy = { stop: stop.signal };
    const wait: Sleep = async () => void stop.abort();
    await expect(
      sendRequest({ open: () => asAttempt(fakeAttempt(failure)), retry: always, policies: [policy], wait }),
    ).rejects.toBe(failure);
  });

  it("hands each policy's before the caller's signal and the loop's own wait", async () => {
    const caller = new AbortController();
    const wait = vi.fn<Sleep>(async () => undefined);
    const seen: unknown[] = [];
    const policy: AttemptPolicy = {
      before: async (attempt, context) => {
        seen.push(attempt, context.signal, context.wait);
        await context.wait(5, context.signal);
      },
    };
    const sent = await sendRequest({
      open: () => asAttempt(fakeAttempt(new Response('ok'))),
      retry: () => undefined,
      policies: [policy],
      signal: caller.signal,
      wait,
    });
    expect(sent.response.status).toBe(200);
    expect(seen).toEqual([1, caller.signal, wait]);
    expect(wait).toHaveBeenCalledWith(5, caller.signal);
  });

  it("a policy's refusal before the first attempt is the request's error, as thrown", async () => {
    const refusal = new RangeError('budget used up');
    const stop = new AbortController();
    stop.abort();
    const open = vi.fn(() => asAttempt(fakeAttempt(new Response('ok'))));
    await expect(
      sendRequest({
        open,
        retry: always,
        policies: [
          {
            stop: stop.signal,
            before: () => {
              throw refusal;
            },
          },
        ],
      }),
    ).rejects.toBe(refusal);
    expect(open).not.toHaveBeenCalled();
  });

  it('ends the attempt whose send threw, and each attempt of an answer it drops', async () => {
    const failed = fakeAttempt(new TypeError('fetch failed'));
    const retried = fakeAttempt(new Response('busy', { status: 503 }));
    const last = fakeAttempt(new Response('ok'));
    const attempts = [failed, retried, last];
    const rule: RetryRule = ({ attempt }) => (attempt < 3 ? { waitMs: 0, reason: 'again' } : undefined);
    const sent = await sendRequest({ open: (n) => asAttempt(attempts[n - 1]!), retry: rule, wait: noWait });
    expect(sent.attempts).toBe(3);
    expect([failed.ended, retried.ended, last.ended]).toEqual([1, 1, 0]);
  });

  it("the caller's abort during a send rejects with its reason, and no retry is asked", async () => {
    const caller = new AbortController();
    const reason = new Error('the caller stopped');
    const retry = vi.fn(always);
    const send = async (): Promise<Response> => {
      caller.abort(reason);
      throw new DOMException('aborted', 'AbortError');
    };
    await expect(
      sendRequest({ open: () => asAttempt(fakeAttempt(send)), retry, signal: caller.signal, wait: noWait }),
    ).rejects.toBe(reason);
    expect(retry).not.toHaveBeenCalled();
  });

  it("the caller's abort during the wait: rejects with its reason, the held answer dropped", async () => {
    const caller = new AbortController();
    const reason = new Error('the caller stopped');
    const held = fakeAttempt(new Response('busy', { status: 503 }));
    const dropped: number[] = [];
    // A wait that fails its own way when its signal aborts: the caller's reason is what the request rejects with.
    const wait: Sleep = (_ms, signal) =>
      new Promise((_, reject) => {
        signal?.addEventListener('abort', () => reject(new Error('the wait was cut')), { once: true });
        caller.abort(reason);
      });
    const stop = new AbortController();
    await expect(
      sendRequest({
        open: () => asAttempt(held),
        retry: always,
        policies: [{ stop: stop.signal }],
        signal: caller.signal,
        wait,
        dropped: (response) => void dropped.push(response.status),
      }),
    ).rejects.toBe(reason);
    expect(dropped).toEqual([503]);
    expect(held.ended).toBe(1);
  });

  it("a wait that fails for a reason of its own (no abort) is the request's error, with a policy's stop there too", async () => {
    const broken = new Error('the clock broke');
    const stop = new AbortController();
    const wait: Sleep = async () => {
      throw broken;
    };
    await expect(
      sendRequest({
        open: () => asAttempt(fakeAttempt(new Response('busy', { status: 503 }))),
        retry: always,
        policies: [{ stop: stop.signal }],
        wait,
      }),
    ).rejects.toBe(broken);
  });

  it('drops a retried answer that has no body', async () => {
    const answers = [new Response(null, { status: 503 }), new Response('ok')];
    const rule: RetryRule = ({ attempt }) => (attempt < 2 ? { waitMs: 0, reason: 'again' } : undefined);
    const sent = await sendRequest({ open: (n) => asAttempt(fakeAttempt(answers[n - 1]!)), retry: rule, wait: noWait });
    expect([sent.attempts, sent.response.status]).toEqual([2, 200]);
  });

  it("the caller's abort during the wait after a failed attempt rejects with its reason", async () => {
    const caller = new AbortController();
    const reason = new Error('the caller stopped');
    const wait: Sleep = async () => {
      caller.abort(reason);
      throw reason;
    };
    await expect(
      sendRequest({
        open: () => asAttempt(fakeAttempt(new TypeError('fetch failed'))),
        retry: always,
        signal: caller.signal,
        wait,
      }),
    ).rejects.toBe(reason);
  });
});
