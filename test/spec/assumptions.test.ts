// Every assumption marked in the spec is listed in the contract guide's table, word for word.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectAssumptions } from '../../src/cli/assumptions.js';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { spec } from '../support/spec.js';

const readme = readFileSync(join(repoRoot, 'docs/guides/contract.md'), 'utf8');
const assumptions = collectAssumptions(spec);
const cell = (text: string) => text.replace(/\|/g, '\\|');

describe('assumptions', () => {
  it('are marked for every gap the issue names', () => {
    const notShown = assumptions.map((a) => a.notShown).join('\n');
    for (const gap of [
      'update response',
      'Error codes',
      'pagination',
      'required',
      'key_type',
      'key_status',
      'account_type',
      'token',
      'Events',
      'Version',
    ])
      expect(notShown).toContain(gap);
  });

  it.each(assumptions)('"$notShown" is in the assumptions table (docs/guides/contract.md)', ({ notShown, choice }) => {
    expect(readme).toContain(`| ${cell(notShown)} | ${cell(choice)} |`);
  });
});
