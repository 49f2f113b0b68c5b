// The bounded body read that the client, the token request and verify share: it stops at the first
// chunk past the limit (or before the first, on a declared Content-Length over it) and cancels the rest.
import { describe, expect, it } from 'vitest';
import {
  ResponseTooLarge,
  byteLimitProblem,
  readBytesWithin,
  readTextWithin,
  shownBytes,
} from '../../src/body-limit.js';
import { redactText } from '../../src/redact.js';

/** A body of `chunks` chunks of `size` bytes that records how far it was read and whether it was cancelled. */
function streamed(chunks: number, size: number, headers: Record<string, string> = {}) {
  const seen = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (seen.pulled === chunks) return controller.close();
        seen.pulled += 1;
        controller.enqueue(new Uint8Array(size).fill(97));
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { response: new Response(body, { headers }), seen };
}

describe('readBytesWithin', () => {
  it('reads a body up to the limit whole, one chunk or many', async () => {
    expect((await readBytesWithin(streamed(1, 10).response, 10)).byteLength).toBe(10);
    expect(await readTextWithin(streamed(4, 3).response, 12)).toBe('a'.repeat(12));
    expect((await readBytesWithin(new Response(null), 1)).byteLength).toBe(0);
    expect(await readTextWithin(new Response('é'), 2)).toBe('é');
    // A body stream that ends without a chunk.
    expect((await readBytesWithin(streamed(0, 1).response, 1)).byteLength).toBe(0);
  });

  it('stops at the first chunk past the limit and cancels the rest', async () => {
    const { response, seen } = streamed(1000, 1024);
    const error = await readBytesWithin(response, 4096).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLarge);
    expect((error as ResponseTooLarge).limitBytes).toBe(4096);
    expect(seen.pulled).toBe(5);
    expect(seen.cancelled).toBe(true);
  });

  it('refuses before reading when Content-Length is over the limit', async () => {
    const { response, seen } = streamed(10, 10, { 'content-length': '100' });
    await expect(readBytesWithin(response, 99)).rejects.toBeInstanceOf(ResponseTooLarge);
    expect(seen.pulled).toBe(0);
    expect(seen.cancelled).toBe(true);
    // A Content-Length within the limit is read as usual.
    expect((await readBytesWithin(streamed(10, 10, { 'content-length': '100' }).response, 100)).byteLength).toBe(100);
  });

  it.each(['1e9', '0x10', '9 9'])(
    'does not trust a Content-Length of %s, which is not plain digits: the count decides',
    async (declared) => {
      const { response, seen } = streamed(2, 4, { 'content-length': declared });
      expect((await readBytesWithin(response, 8)).byteLength).toBe(8);
      expect(seen.pulled).toBe(2);
    },
  );

  it('names its error class', async () => {
    const error = await readBytesWithin(streamed(2, 4).response, 5).catch((e: unknown) => e);
    expect((error as Error).name).toBe('ResponseTooLarge');
    expect(String(error)).toMatch(/^ResponseTooLarge: /);
    // The answer's status and media type, for whoever turns it into its own error.
    expect(error).toMatchObject({ limitBytes: 5, status: 200 });
  });
});

describe('byteLimitProblem', () => {
  it('takes positive whole numbers only', () => {
    expect(byteLimitProblem(1)).toBeUndefined();
    expect(byteLimitProblem(10 * 1024 * 1024)).toBeUndefined();
    for (const bad of [0, -1, 1.5, Number.NaN, Infinity, '10', undefined, 2 ** 60])
      expect(byteLimitProblem(bad)).toBeDefined();
  });
});

describe('a size as the package prints it (shownBytes)', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [1000, '1000 bytes'],
    [1023, '1023 bytes'],
    [1024, '1 KiB'],
    [1500, '1 KiB 476 bytes'],
    [10 * 1024 * 1024, '10 MiB'],
    [10 ** 10, '10 GB'],
    [10 ** 10 + 1, '10 GB 1 byte'],
    [Number.MAX_SAFE_INTEGER, '7 PiB 1023 TiB 1023 GiB 1023 MiB 1023 KiB 1023 bytes'],
  ])('%s bytes is %s', (bytes, shown) => {
    expect(shownBytes(bytes)).toBe(shown);
  });

  it('is exact, and no size up to 2^53 is masked as a CPF (only letters break a run of digits)', () => {
    const factor = { bytes: 1, byte: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3, TiB: 1024 ** 4, PiB: 1024 ** 5 };
    const decimal = { kB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12, PB: 1e15 };
    const units: Record<string, number> = { ...factor, ...decimal };
    for (let bytes = 1; bytes < Number.MAX_SAFE_INTEGER / 7; bytes = bytes * 7 + 3) {
      const shown = shownBytes(bytes);
      expect(redactText(`the limit of ${shown}`)).toBe(`the limit of ${shown}`);
      const total = [...shown.matchAll(/(\d+) (\S+)/g)].reduce(
        (sum, [, n, unit]) => sum + Number(n) * units[unit!]!,
        0,
      );
      expect(total).toBe(bytes);
    }
  });

  it("ResponseTooLarge's message names an 11-digit limit whole through the masking", async () => {
    const response = new Response('x', { headers: { 'content-length': String(10 ** 10 + 1) } });
    const error = (await readBytesWithin(response, 10 ** 10).catch((e: unknown) => e)) as Error;
    expect(redactText(error.message)).toBe('the response body (HTTP 200) is larger than the limit of 10 GB');
  });
});
