// The bounded body read that the client, the token request and verify share: it stops at the first
// chunk past the limit (or before the first, on a declared Content-Length over it) and cancels the rest.
import { describe, expect, it } from 'vitest';
import { BodyTooLargeError, byteLimitProblem, readBytesWithin, readTextWithin, withBodyLimit } from '../../src/body-limit.js';

/** A body of `chunks` chunks of `size` bytes that records how far it was read and whether it was cancelled. */
function streamed(chunks: number, size: number, headers: Record<string, string> = {}) {
  const seen = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled === chunks) return controller.close();
      seen.pulled += 1;
      controller.enqueue(new Uint8Array(size).fill(97));
    },
    cancel() {
      seen.cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { response: new Response(body, { headers }), seen };
}

describe('readBytesWithin', () => {
  it('reads a body up to the limit whole, one chunk or many', async () => {
    expect((await readBytesWithin(streamed(1, 10).response, 10)).byteLength).toBe(10);
    expect(await readTextWithin(streamed(4, 3).response, 12)).toBe('a'.repeat(12));
    expect((await readBytesWithin(new Response(null), 1)).byteLength).toBe(0);
    expect(await readTextWithin(new Response('é'), 2)).toBe('é');
  });

  it('stops at the first chunk past the limit and cancels the rest', async () => {
    const { response, seen } = streamed(1000, 1024);
    const error = await readBytesWithin(response, 4096).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BodyTooLargeError);
    expect((error as BodyTooLargeError).limitBytes).toBe(4096);
    expect(seen.pulled).toBe(5);
    expect(seen.cancelled).toBe(true);
  });

  it('refuses before reading when Content-Length is over the limit', async () => {
    const { response, seen } = streamed(10, 10, { 'content-length': '100' });
    await expect(readBytesWithin(response, 99)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(seen.pulled).toBe(0);
    expect(seen.cancelled).toBe(true);
    // A Content-Length within the limit is read as usual.
    expect((await readBytesWithin(streamed(10, 10, { 'content-length': '100' }).response, 100)).byteLength).toBe(100);
  });
});

describe('withBodyLimit', () => {
  it('passes a body within the limit, status and headers kept', async () => {
    const limited = withBodyLimit(new Response('{"a":1}', { status: 201, statusText: 'Made', headers: { 'x-request-id': 'r1' } }), 7);
    expect([limited.status, limited.statusText, limited.headers.get('x-request-id')]).toEqual([201, 'Made', 'r1']);
    expect(await limited.json()).toEqual({ a: 1 });
    const empty = new Response(null, { status: 204 });
    expect(withBodyLimit(empty, 1)).toBe(empty);
  });

  it('errors the reader past the limit and cancels the source', async () => {
    const { response, seen } = streamed(1000, 1024);
    const error = await withBodyLimit(response, 2048).text().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BodyTooLargeError);
    await expect.poll(() => seen.cancelled).toBe(true);
    expect(seen.pulled).toBeLessThan(10);
  });

  it('errors at once on a declared Content-Length over the limit', async () => {
    const { response, seen } = streamed(10, 10, { 'content-length': '100' });
    await expect(withBodyLimit(response, 50).arrayBuffer()).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(seen.pulled).toBeLessThan(3);
  });
});

describe('byteLimitProblem', () => {
  it('takes positive whole numbers only', () => {
    expect(byteLimitProblem(1)).toBeUndefined();
    expect(byteLimitProblem(10 * 1024 * 1024)).toBeUndefined();
    for (const bad of [0, -1, 1.5, Number.NaN, Infinity, '10', undefined, 2 ** 60]) expect(byteLimitProblem(bad)).toBeDefined();
  });
});
