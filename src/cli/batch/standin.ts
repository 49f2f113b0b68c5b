// TEMPORARY stand-in for src/batch's updateMany and exportKeyPages until that branch is merged.
import type { BaasClient } from '../../client/baas-client.js';
import type { PixKey } from '../../types.js';

export type UpdateManyResult<I> =
  | { index: number; item: I; ok: true; result: unknown }
  | { index: number; item: I; ok: false; error: unknown };

export async function* updateMany<I extends { account: string; documentNumber: string; body: unknown }>(
  client: BaasClient,
  items: AsyncIterable<I>,
  options: { concurrency?: number; rate?: number; signal?: AbortSignal },
): AsyncGenerator<UpdateManyResult<I>> {
  const iterator = items[Symbol.asyncIterator]();
  const running = new Map<number, Promise<UpdateManyResult<I>>>();
  let index = 0;
  let exhausted = false;
  const concurrency = options.concurrency ?? 8;
  while (true) {
    while (!exhausted && running.size < concurrency) {
      const next = await iterator.next();
      if (next.done) {
        exhausted = true;
        break;
      }
      const i = index++;
      const item = next.value;
      running.set(
        i,
        client
          .updateNaturalPerson({
            account: item.account,
            documentNumber: item.documentNumber,
            body: item.body as never,
            signal: options.signal,
          })
          .then(
            (result): UpdateManyResult<I> => ({ index: i, item, ok: true, result }),
            (error): UpdateManyResult<I> => ({ index: i, item, ok: false, error }),
          ),
      );
    }
    if (running.size === 0) return;
    const done = await Promise.race(running.values());
    running.delete(done.index);
    yield done;
  }
}

export async function* exportKeyPages(
  client: BaasClient,
  options: { after?: string; limit?: number; signal?: AbortSignal; rate?: number },
): AsyncGenerator<{ keys: PixKey[]; cursor: string | undefined; nextCursor: string | undefined }> {
  let cursor = options.after;
  while (true) {
    const page = await client.listPixKeys({
      ...(cursor ? { cursor } : {}),
      limit: options.limit ?? 100,
      signal: options.signal,
    });
    const nextCursor = page.cursor?.next ?? undefined;
    yield { keys: page.data, cursor, nextCursor };
    if (!nextCursor) return;
    cursor = nextCursor;
  }
}
