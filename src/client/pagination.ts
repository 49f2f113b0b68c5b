// Walks the key list page by page, holding one page at a time.
import { ResponseError } from '../errors.js';
import type { PixKey, PixKeyList } from '../types.js';

export interface PixKeysOptions {
  /** Page size asked of the server (1-200). */
  limit?: number;
  /** Stop after this many pages. Default: no limit. */
  maxPages?: number;
  signal?: AbortSignal;
}

type FetchPage = (query: { limit?: number; cursor?: string; signal?: AbortSignal }) => Promise<PixKeyList>;

export async function* walkPixKeys(fetchPage: FetchPage, options: PixKeysOptions): AsyncGenerator<PixKey, void, undefined> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; options.maxPages === undefined || page <= options.maxPages; page += 1) {
    const result = await fetchPage({
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
      ...(cursor !== undefined ? { cursor } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    yield* result.data;
    const next = result.cursor?.next;
    if (next === null || next === undefined || next === '') return;
    if (seen.has(next)) {
      throw new ResponseError(
        `the server sent a cursor it had already sent (page ${page}); stopped to avoid an endless loop`,
        { status: 200 },
        { operation: 'listPixKeys' },
      );
    }
    seen.add(next);
    cursor = next;
  }
}
