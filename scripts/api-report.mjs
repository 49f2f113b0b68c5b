#!/usr/bin/env node
// `npm run api:report`: the public surface of each entry point (scripts/lib/entries.mjs) as
// @microsoft/api-extractor reports it, written to api/<name>.api.md. Any change to an export shows up
// in review as a change of those files. `--check` writes nothing: it compares, and fails naming the
// entries whose surface changed (test/api/report.check.test.ts, in `npm run check`, runs it).
// Both modes fail on any `ae-*` message api-extractor raises (below): a public signature naming a type
// neither its entry nor `baas-pix-contract/types` exports (`ae-forgotten-export`: a user could not write
// that type), a broken `{@link}`, an item without a doc comment (`ae-undocumented`). The contract's types
// have that subpath of their own (TYPES_ENTRY), so the root names `PixKey` without exporting it again.
// The declarations come from `tsc` over src/ (tsconfig.build.json) into a folder of its own under
// .artifacts/, so that their `import 'openapi-fetch'` resolves to the repository's node_modules.
import { cp, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import ts from 'typescript';
import { ENTRIES, TYPES_ENTRY } from './lib/entries.mjs';
import { repoRoot } from './lib/paths.mjs';
import { run } from './lib/run.mjs';

// `--against DIR` compares with the reports in DIR instead of api/ (the check's own test uses it, with a
// report changed on purpose, to see that the comparison fails).
const { values } = parseArgs({
  options: { check: { type: 'boolean', default: false }, against: { type: 'string' } },
});
if (values.against && !values.check) throw new Error('--against DIR only goes with --check: it never writes DIR');
const REPORT_FOLDER = values.against ? resolve(values.against) : join(repoRoot, 'api');

/** `.` -> `baas-pix-contract`; `./sandbox` -> `baas-pix-contract-sandbox`. */
export const reportName = (subpath) => `baas-pix-contract${subpath === '.' ? '' : `-${subpath.slice(2)}`}`;

/** `.` -> `baas-pix-contract`; `./sandbox` -> `baas-pix-contract/sandbox`: the specifier a user imports. */
const entryName = (subpath) => `baas-pix-contract${subpath.slice(1)}`;

/** The lines only one of the two reports holds (`-` recorded, `+` today's), the first 20 and a count. */
async function changedLines(recordedFile, todayFile) {
  const read = (file) =>
    readFile(file, 'utf8').then(
      (text) => text.split('\n'),
      () => [],
    );
  const [recorded, today] = await Promise.all([read(recordedFile), read(todayFile)]);
  const [was, is] = [new Set(recorded), new Set(today)];
  const lines = [
    ...recorded.filter((line) => !is.has(line)).map((line) => `  - ${line}`),
    ...today.filter((line) => !was.has(line)).map((line) => `  + ${line}`),
  ];
  const shown = lines.slice(0, 20).join('\n');
  return lines.length > 20
    ? `${shown}\n  … and ${lines.length - 20} more lines`
    : shown || '  (only the order of lines)';
}

/** The source file a message is about (it was found in a declaration file of the temporary folder). */
const where = (message) => {
  const file = message.sourceFilePath && relative(declarations, message.sourceFilePath);
  return file && !file.startsWith('..') ? ` (declared in src/${file.replace(/\.d\.ts$/, '.ts')})` : '';
};

await mkdir(join(repoRoot, '.artifacts'), { recursive: true });
const work = await mkdtemp(join(repoRoot, '.artifacts', 'api-'));
const declarations = join(work, 'dts');
const changed = [];
const errors = [];
try {
  await run(process.execPath, [
    join(repoRoot, 'node_modules/typescript/bin/tsc'),
    ...['-p', join(repoRoot, 'tsconfig.build.json'), '--emitDeclarationOnly', '--outDir', declarations],
  ]);
  // The generated validators are JavaScript with hand-off declarations beside them, which tsc reads but does not emit.
  for (const file of await readdir(join(repoRoot, 'src/generated'))) {
    if (file.endsWith('.d.ts')) await cp(join(repoRoot, 'src/generated', file), join(declarations, 'generated', file));
  }
  const contractTypes = exportedNames(declarationOf(ENTRIES[TYPES_ENTRY]));
  for (const [subpath, source] of Object.entries(ENTRIES)) {
    const name = reportName(subpath);
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: repoRoot,
        mainEntryPointFilePath: declarationOf(source),
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
          extractorMessageReporting: {
            // Every ae-* message is an error, never a line left in a report for a reviewer to overlook.
            default: { logLevel: 'error', addToApiReportFile: false },
            // Release tags (@public, @beta) are not this package's convention: every export is public.
            'ae-missing-release-tag': { logLevel: 'none', addToApiReportFile: false },
            // Every public item has a doc comment (an export, a member, a namespace member): an undocumented one
            // is an error like the others, named with the file it is declared in.
          },
          tsdocMessageReporting: { default: { logLevel: 'none', addToApiReportFile: false } },
          compilerMessageReporting: { default: { logLevel: 'error' } },
        },
      },
      configObjectFullPath: join(repoRoot, 'api', 'api-extractor.json'),
      packageJsonFullPath: join(repoRoot, 'package.json'),
    });
    const result = Extractor.invoke(config, {
      // Never writes api/ itself: the reports are copied below, and only when no entry has an error.
      localBuild: false,
      // The project's own TypeScript, not the one api-extractor bundles.
      typescriptCompilerFolder: join(repoRoot, 'node_modules/typescript'),
      // Errors are said below, each with where it is; nothing else is printed.
      messageCallback: (message) => {
        const forgotten = message.messageId === 'ae-forgotten-export' && /The symbol "([^"]+)"/.exec(message.text)?.[1];
        if (forgotten && contractTypes.has(forgotten)) message.logLevel = 'none';
        if (message.logLevel === 'error')
          errors.push(`${subpath}: (${message.messageId}) ${message.text}${where(message)}`);
        message.handled = true;
      },
    });
    if (result.errorCount > 0 && errors.length === 0) throw new Error(`api-extractor failed for ${subpath}`);
    if (result.apiReportChanged) {
      const file = `${name}.api.md`;
      changed.push({
        subpath,
        file,
        lines: await changedLines(join(REPORT_FOLDER, file), join(work, 'reports', file)),
      });
    }
  }
  if (!values.check && errors.length === 0) {
    for (const { file } of changed) await cp(join(work, 'reports', file), join(REPORT_FOLDER, file));
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
/** The declaration file tsc wrote for an entry's source (`src/types.ts` -> `<declarations>/types.d.ts`). */
function declarationOf(source) {
  return join(declarations, source.replace(/^src\//, '').replace(/\.ts$/, '.d.ts'));
}

/** The names a declaration file exports, as TypeScript resolves them (re-exports included). */
function exportedNames(file) {
  const program = ts.createProgram([file], { noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(file));
  return new Set(checker.getExportsOfModule(module).map((symbol) => symbol.name));
}

if (errors.length > 0) {
  console.error(
    `api-extractor reports ${errors.length} problem(s) with the public surface:\n${errors.map((e) => `  ${e}`).join('\n')}\n` +
      'Export each type a public signature names from that entry (src/index.ts, src/sandbox/index.ts, src/testing/index.ts) ' +
      'or, for a type of the contract, from src/types.ts (baas-pix-contract/types), ' +
      'or keep it out of the signature; then run `npm run api:report` and say why in docs/api-surface.md.',
  );
  process.exit(1);
}
if (values.check && changed.length > 0) {
  console.error(
    `The public surface changed: ${changed.map(({ subpath, file }) => `${entryName(subpath)} (api/${file})`).join(', ')}.\n` +
      changed.map(({ file, lines }) => `api/${file}:\n${lines}\n`).join('') +
      'If the change is meant, run `npm run api:report` and commit api/.',
  );
  process.exit(1);
}
console.log(values.check ? 'api/: the public surface is as recorded' : `api/: ${changed.length} report(s) updated`);
