// A body that never ends, for the response size limits: it counts what was pulled from it and
// whether its reader cancelled it, so a test sees that a read stopped near the limit without
// measuring memory or time.

export interface EndlessBody {
  body: ReadableStream<Uint8Array>;
  /** Chunks pulled so far, and bytes. */
  seen: { chunks: number; bytes: number; cancelled: boolean };
}

/** `chunkBytes` bytes of `{` at a time, for ever (JSON that never closes), pulled one chunk per read. */
export function endlessBody(chunkBytes = 1024): EndlessBody {
  const seen = { chunks: 0, bytes: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
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
