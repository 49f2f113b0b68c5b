// The table of digits outside \p{Nd} (src/unicode-digits.ts) is what scripts/unicode-digits.mjs derives
// from the Unicode Character Database (the committed extract scripts/data/ucd-numeric.json): this fails
// when it is stale or edited by hand.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { unicodeDigitsSource } from '../../scripts/unicode-digits.mjs';

describe('src/unicode-digits.ts', () => {
  it('is what scripts/unicode-digits.mjs writes (run it after scripts/ucd-extract.mjs)', async () => {
    expect(await readFile(join(repoRoot, 'src', 'unicode-digits.ts'), 'utf8')).toBe(unicodeDigitsSource());
  });
});
