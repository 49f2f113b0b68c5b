// src/generated/ is exactly what `npm run generate` writes from openapi/ now.
import { describe, expect, it } from 'vitest';
import { run } from '../../scripts/lib/run.mjs';

describe('generated files', () => {
  it('are fresh', async () => {
    const output = await run(process.execPath, ['scripts/check-generated.mjs']);
    expect(output).toMatch(/is fresh/);
  });
});
