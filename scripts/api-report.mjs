#!/usr/bin/env node
// `npm run api:report`: the public surface of each entry point (scripts/lib/entries.mjs) as
// @microsoft/api-extractor reports it, written to api/<name>.api.md. Any change to an export shows up
// in review as a change of those files. `--check` writes nothing: it compares, and fails naming the
// entries whose surface changed (test/api/report.test.ts runs it).
// The declarations come from `tsc` over src/ (tsconfig.build.json) into a folder of its own under
// .artifacts/, so that their `import 'openapi-fetch'` resolves to the repository's node_modules.
import { cp, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import { ENTRIES } from './lib/entries.mjs';
import { repoRoot } from './lib/paths.mjs';
import { run } from './lib/run.mjs';

const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });
const REPORT_FOLDER = join(repoRoot, 'api');

/** `.` -> `baas-pix-contract`; `./sandbox` -> `baas-pix-contract-sandbox`. */
export const reportName = (subpath) => `baas-pix-contract${subpath === '.' ? '' : `-${subpath.slice(2)}`}`;

await mkdir(join(repoRoot, '.artifacts'), { recursive: true });
const work = await mkdtemp(join(repoRoot, '.artifacts', 'api-'));
const changed = [];
try {
  const declarations = join(work, 'dts');
  await run(process.execPath, [
    join(repoRoot, 'node_modules/typescript/bin/tsc'),
    ...['-p', join(repoRoot, 'tsconfig.build.json'), '--emitDeclarationOnly', '--outDir', declarations],
  ]);
  // The generated validators are JavaScript with hand-off declarations beside them, which tsc reads but does not emit.
  for (const file of await readdir(join(repoRoot, 'src/generated'))) {
    if (file.endsWith('.d.ts')) await cp(join(repoRoot, 'src/generated', file), join(declarations, 'generated', file));
  }
  for (const [subpath, source] of Object.entries(ENTRIES)) {
    const name = reportName(subpath);
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: repoRoot,
        mainEntryPointFilePath: join(declarations, source.replace(/^src\//, '').replace(/\.ts$/, '.d.ts')),
        compiler: { tsconfigFilePath: join(repoRoot, 'tsconfig.build.json') },
        apiReport: {
          enabled: true,
          reportFileName: `${name}.api.md`,
          reportFolder: REPORT_FOLDER,
          reportTempFolder: join(work, 'reports'),
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          // Release tags (@public, @beta) are not this package's convention: every export is public.
          extractorMessageReporting: {
            default: { logLevel: 'none', addToApiReportFile: true },
            'ae-missing-release-tag': { logLevel: 'none', addToApiReportFile: false },
            // Doc comments are reviewed as code; listing each missing one (with its line) would churn the report.
            'ae-undocumented': { logLevel: 'none', addToApiReportFile: false },
          },
          tsdocMessageReporting: { default: { logLevel: 'none', addToApiReportFile: false } },
          compilerMessageReporting: { default: { logLevel: 'error' } },
        },
      },
      configObjectFullPath: join(repoRoot, 'api', 'api-extractor.json'),
      packageJsonFullPath: join(repoRoot, 'package.json'),
    });
    const result = Extractor.invoke(config, {
      localBuild: !values.check,
      // The project's own TypeScript, not the one api-extractor bundles.
      typescriptCompilerFolder: join(repoRoot, 'node_modules/typescript'),
      // Warnings go into the report itself (addToApiReportFile); the outcome is said below.
      messageCallback: (message) => {
        message.handled = true;
      },
    });
    if (result.errorCount > 0 && !result.apiReportChanged) throw new Error(`api-extractor failed for ${subpath}`);
    if (result.apiReportChanged) changed.push(`${subpath} (api/${name}.api.md)`);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
if (values.check && changed.length > 0) {
  console.error(
    `The public surface changed: ${changed.join(', ')}. If the change is meant, run \`npm run api:report\` and commit api/.`,
  );
  process.exit(1);
}
console.log(values.check ? 'api/: the public surface is as recorded' : `api/: ${changed.length} report(s) updated`);
