// The size budget is deterministic, so unlike timings it may fail the build.
import { describe, expect, it } from 'vitest';
import { SIZE_BUDGET_GZIP_BYTES, entrySize } from '../../scripts/lib/size.mjs';

describe('bundle size', () => {
  it(`the client entry point, minified and gzipped, stays within ${SIZE_BUDGET_GZIP_BYTES / 1024} kB`, async () => {
    const size = await entrySize();
    console.log(`client entry: ${size.minifiedBytes} B minified, ${size.gzipBytes} B gzip (budget ${SIZE_BUDGET_GZIP_BYTES} B)`);
    // It really contains what a consumer ships: openapi-fetch and the generated validators.
    expect(size.inputs.map((i) => i.path).join('\n')).toMatch(/openapi-fetch/);
    expect(size.inputs.map((i) => i.path).join('\n')).toMatch(/generated\/validators\.js/);
    expect(size.gzipBytes).toBeLessThanOrEqual(SIZE_BUDGET_GZIP_BYTES);
  });
});
