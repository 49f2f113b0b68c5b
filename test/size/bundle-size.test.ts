// The size budget is deterministic, so unlike timings it may fail the build. It counts what a user
// who opts into nothing loads: the root entry bundled with code splitting, its entry chunk and the
// chunks it imports statically. Chunks reached only by dynamic import (openapi-fetch for `raw`, the
// page walker of pixKeys, the token cache and request of clientCredentials, the logging code, the TLS
// fetch and its option checks, the rate-limit reader) are printed, not counted.
import { describe, expect, it } from 'vitest';
import { SIZE_BUDGET_GZIP_BYTES, entrySize } from '../../scripts/lib/size.mjs';

describe('bundle size', () => {
  it(`the client entry point and its static imports, minified and gzipped, stay within ${SIZE_BUDGET_GZIP_BYTES / 1024} kB`, async () => {
    const size = await entrySize();
    console.log(`client entry: ${size.minifiedBytes} B minified, ${size.gzipBytes} B gzip in ${size.eagerChunks.length} chunk(s) (budget ${SIZE_BUDGET_GZIP_BYTES} B)`);
    for (const chunk of size.eagerChunks) console.log(`  loaded with the entry: ${chunk.name} ${chunk.gzipBytes} B gzip`);
    for (const chunk of size.lazyChunks) console.log(`  lazy: ${chunk.name} ${chunk.gzipBytes} B gzip (${chunk.inputs.join(', ')})`);
    const inputs = size.inputs.map((i: { path: string }) => i.path).join('\n');
    // It really contains what a consumer ships: the client and the generated validators.
    expect(inputs).toMatch(/src\/client\/call\.ts/);
    expect(inputs).toMatch(/generated\/validators\.js/);
    // What loads only for those who opt in stays out of it.
    const lazyInputs = size.lazyChunks.flatMap((c: { inputs: string[] }) => c.inputs).join('\n');
    expect(inputs).not.toMatch(/src\/tls\/agent\.ts|src\/logging\/event-log\.ts|src\/auth\/request-token\.ts|openapi-fetch/);
    // openapi-fetch loads with the first `raw` request (src/client/lazy-client.ts).
    expect(lazyInputs).toMatch(/node_modules\/openapi-fetch\//);
    expect(lazyInputs).toMatch(/src\/tls\/agent\.ts/);
    expect(lazyInputs).toMatch(/src\/logging\/event-log\.ts/);
    expect(lazyInputs).toMatch(/src\/auth\/request-token\.ts/);
    // The page walker of pixKeys loads with its first page (src/client/lazy-iterator.ts).
    expect(inputs).not.toMatch(/src\/client\/pagination\.ts/);
    expect(lazyInputs).toMatch(/src\/client\/pagination\.ts/);
    // The tls option's shape check loads with undici (src/tls/lazy.ts checks only its type).
    expect(inputs).not.toMatch(/src\/tls\/options\.ts/);
    // The package's other entry points and tools never ride along with the root one.
    expect(inputs).not.toMatch(/src\/(testing|sandbox|drift|verify|cli)\//);
    expect(size.inputs.map((i: { path: string }) => i.path).filter((path: string) => /src\/(testing|sandbox|drift|verify|cli)\//.test(path))).toEqual([]);
    // One chunk: a module imported by both the entry and a lazy chunk would be split into a chunk of
    // its own, loaded with the entry and compressed apart (the logging code once shared redact.ts).
    expect(size.eagerChunks.map((c: { name: string }) => c.name)).toHaveLength(1);
    expect(size.gzipBytes).toBeLessThanOrEqual(SIZE_BUDGET_GZIP_BYTES);
  });
});
