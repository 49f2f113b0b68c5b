// A body that does not end, for the response size limits: it counts what was pulled from it and
// whether its reader cancelled it, so a test sees that a read stopped near the limit without
// measuring memory or time. A reader that ignores every limit meets an error at `capBytes` (far past
// any limit a test sets), so a broken limit fails the test instead of filling the machine's memory.

export interface EndlessBody {
  body: ReadableStream<Uint8Array>;
  /** Chunks pulled so far, and bytes. */
  seen: { chunks: number; bytes: number; cancelled: boolean };
}

/** The error a reader meets past `capBytes`: it read far more than any limit allows. */
export const PAST_THE_CAP = 'the reader went past the test cap: no limit stopped it';

/** `chunkBytes` bytes of `{` at a time (JSON that never closes), pulled one chunk per read, up to `capBytes`. */
export function endlessBody(chunkBytes = 1024, capBytes = 32 * 1024 * 1024): EndlessBody {
  const seen = { chunks: 0, bytes: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (seen.bytes >= capBytes) return controller.error(new Error(PAST_THE_CAP));
        seen.chunks += 1;
        seen.bytes += chunkBytes;
        controller.enqueue(new Uint8Array(chunkBytes).fill(0x7b));
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { body, seen };
}
