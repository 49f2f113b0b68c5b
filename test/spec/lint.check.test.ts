// Lint reports zero problems, and the project's own rules catch what they are written for.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redocly } from '../../scripts/lib/run.mjs';
import { repoRoot } from '../../scripts/lib/paths.mjs';

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; message: string }[];
}

async function lint(root: string, cwd?: string): Promise<LintReport> {
  const args = ['lint', root, '--format', 'json', '--max-problems', '1000'];
  if (cwd) args.push('--config', join(cwd, 'redocly.yaml'));
  const output = await redocly(args).catch((error: Error) => error.message);
  const json = output.slice(output.indexOf('{'));
  return JSON.parse(json.slice(0, json.lastIndexOf('}') + 1)) as LintReport;
}

describe('redocly lint', () => {
  it('reports zero errors and zero warnings on the spec', async () => {
    const report = await lint('openapi/openapi.yaml');
    expect(report.problems).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });

  describe('project rules fail a spec that breaks them', () => {
    let copy: string;
    beforeAll(async () => {
      copy = await mkdtemp(join(tmpdir(), 'baas-lint-'));
      await cp(join(repoRoot, 'openapi'), join(copy, 'openapi'), { recursive: true });
      await cp(join(repoRoot, 'redocly.yaml'), join(copy, 'redocly.yaml'));
    });
    afterAll(() => rm(copy, { recursive: true, force: true }));

    async function edit(file: string, from: string | RegExp, to: string): Promise<void> {
      const path = join(copy, 'openapi', file);
      const before = await readFile(path, 'utf8');
      const after = before.replace(from, to);
      expect(after).not.toBe(before);
      await writeFile(path, after);
    }

    it('flags unbounded strings, arrays and numbers, a missing 429, a 429 without Retry-After, an error without example, and no security', async () => {
      await edit('components/schemas/Address.yaml', '    maxLength: 120\n', '');
      await edit('components/schemas/PixKeyList.yaml', '    maxItems: 200\n', '');
      await edit('components/parameters/Limit.yaml', '  maximum: 200\n', '');
      await edit('paths/v2_api_baas-onboarding_account_natural-person.yaml', / {4}'429':\n.*\n/, '');
      await edit('components/responses/TooManyRequests.yaml', / {2}Retry-After:\n.*\n/, '');
      await edit('components/responses/NotFound.yaml', / {4}examples:\n.*\n.*\n/, '');
      await edit('openapi.yaml', 'security:\n  - BearerAuth: []\n', '');
      const report = await lint(join(copy, 'openapi', 'openapi.yaml'), copy);
      const rules = new Set(report.problems.map((p) => p.ruleId));
      expect([...rules].sort()).toEqual(
        [
          // The bearer scheme, no longer required anywhere, is also unused.
          'no-unused-components',
          'response-contains-header',
          'rule/operation-has-security',
          'security-defined',
          'rule/array-has-max-items',
          'rule/number-has-bounds',
          'rule/operation-has-401-and-429',
          'rule/problem-response-has-example',
          'rule/string-has-max-length',
        ].sort(),
      );
    });
  });
});
