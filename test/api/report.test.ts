// The recorded public surface: api/*.api.md, one per entry point, committed and free of api-extractor
// warnings (a public signature naming a type its entry does not export: ae-forgotten-export). That the
// reports match today's declarations is checked by report.matrix.test.ts: api-extractor over a fresh
// declaration build is about 10 s of CPU, run by `npm run test:matrix` and CI.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTRIES } from '../../scripts/lib/entries.mjs';
import { repoRoot } from '../../scripts/lib/paths.mjs';

describe('the API reports', () => {
  it('are committed, one per entry point', async () => {
    const reports = (await readdir(join(repoRoot, 'api'))).filter((file) => file.endsWith('.api.md'));
    expect(reports).toHaveLength(Object.keys(ENTRIES).length);
  });

  it('carry no api-extractor warning: every type a signature names can be imported from its entry', async () => {
    const reports = (await readdir(join(repoRoot, 'api'))).filter((file) => file.endsWith('.api.md'));
    for (const report of reports) {
      const warnings = (await readFile(join(repoRoot, 'api', report), 'utf8')).match(/^.*\(ae-[a-z-]+\).*$/gm);
      expect(warnings, report).toBeNull();
    }
  });
});
