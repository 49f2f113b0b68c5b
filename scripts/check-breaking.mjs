#!/usr/bin/env node
// `npm run check:breaking`: the bundled spec against the last release's (a tag v<version>, or in a
// clone without tags the committed releases/openapi-<version>.json); fails on a breaking change
// unless the version is a new major. `--spec FILE --baseline FILE --baseline-version V` compare files.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { breakingChanges, findBaseline, verdict } from './lib/breaking.mjs';
import { repoRoot } from './lib/paths.mjs';

const { values } = parseArgs({
  options: {
    spec: { type: 'string', default: join(repoRoot, 'src/generated/openapi.json') },
    version: { type: 'string' },
    baseline: { type: 'string' },
    'baseline-version': { type: 'string' },
  },
});
const readJson = async (path) => JSON.parse(await readFile(path, 'utf8'));
const currentVersion = values.version ?? (await readJson(join(repoRoot, 'package.json'))).version;
const current = await readJson(values.spec);

const baseline = values.baseline
  ? {
      version: values['baseline-version'] ?? (await readJson(values.baseline)).info.version,
      spec: await readJson(values.baseline),
      source: values.baseline,
    }
  : await findBaseline(repoRoot, currentVersion);
if (!baseline) {
  console.error(
    `check:breaking: no release to compare with: no tag v<version> and nothing in releases/. Release one with \`npm run release:tag\`.`,
  );
  process.exit(1);
}

const breaking = breakingChanges(baseline.spec, current);
const result = verdict({ baselineVersion: baseline.version, currentVersion, breaking });
console.log(`check:breaking: ${currentVersion} against v${baseline.version} from ${baseline.source}`);
for (const change of breaking.slice(0, 50)) console.log(`  breaking: ${change.action} ${change.path}`);
if (breaking.length > 50) console.log(`  … and ${breaking.length - 50} more`);
console.log(`${result.ok ? 'ok' : 'FAIL'}: ${result.reason}`);
process.exit(result.ok ? 0 : 1);
