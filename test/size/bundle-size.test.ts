// The size budget is deterministic, so unlike timings it may fail the build. It counts what a user
// who opts into nothing loads: the root entry bundled with code splitting, its entry chunk and the
// chunks it imports statically. Chunks reached only by dynamic import (the token request of
// clientCredentials, the logging code, the TLS fetch, the rate-limit reader) are printed, not counted.
import { describe, expect, it } from 'vitest';
import { SIZE_BUDGET_GZIP_BYTES, entrySize } from '../../scripts/lib/size.mjs';

describe('bundle size', () => {
  it(`the client entry point and its static imports, minified and gzipped, stay within ${SIZE_BUDGET_GZIP_BYTES / 1024} kB`, async () => {
    const size = await entrySize();
    console.log(`client entry: ${size.minifiedBytes} B minified, ${size.gzipBytes} B gzip in ${size.eagerChunks.length} chunk(s) (budget ${SIZE_BUDGET_GZIP_BYTES} B)`);
    for (const chunk of size.eagerChunks) console.log(`  loaded with the entry: ${chunk.name} ${chunk.gzipBytes} B gzip`);
    for (const chunk of size.lazyChunks) console.log(`  lazy: ${chunk.name} ${chunk.gzipBytes} B gzip (${chunk.inputs.join(', ')})`);
    const inputs = size.inputs.map((i: { path: string }) => i.path).join('\n');
    // It really contains what a consumer ships: openapi-fetch and the generated validators.
    expect(inputs).toMatch(/openapi-fetch/);
    expect(inputs).toMatch(/generated\/validators\.js/);
    // What loads only for those who opt in stays out of it.
    const lazyInputs = size.lazyChunks.flatMap((c: { inputs: string[] }) => c.inputs).join('\n');
    expect(inputs).not.toMatch(/src\/tls\/agent\.ts|src\/logging\/event-log\.ts|src\/auth\/request-token\.ts/);
    expect(lazyInputs).toMatch(/src\/tls\/agent\.ts/);
    expect(lazyInputs).toMatch(/src\/logging\/event-log\.ts/);
    expect(lazyInputs).toMatch(/src\/auth\/request-token\.ts/);
    expect(size.gzipBytes).toBeLessThanOrEqual(SIZE_BUDGET_GZIP_BYTES);
  });
});
