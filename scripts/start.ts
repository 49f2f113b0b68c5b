// `npm start`: the whole pipeline a person wants, then the mock in the foreground.
// lint -> bundle + generate -> docs -> `baas-pix-contract mock` (the command line's own code), with
// any arguments passed on: `npm start -- --port 4020`.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { redocly, run } from './lib/run.mjs';
import { repoRoot } from './lib/paths.mjs';
import { redoclyCli } from '../src/cli/docs.js';
import { buildDocs } from '../src/cli/docs-page.js';
import { makeFolder } from '../src/files.js';
import { main } from '../src/cli/main.js';

const docsFolder = join(repoRoot, 'site');
const docsPage = join(docsFolder, 'index.html');

async function step(name: string, work: () => Promise<unknown>): Promise<void> {
  const started = Date.now();
  process.stdout.write(`• ${name} … `);
  await work();
  console.log(`done in ${Date.now() - started} ms`);
}

try {
  await step('lint (redocly, recommended-strict + project rules)', () => redocly(['lint']));
  await step('bundle and generate types (src/generated/)', () => run(process.execPath, ['scripts/generate.mjs']));
  await step('docs (one self-contained HTML page)', async () => {
    // site/ is not in a fresh clone (.gitignore): made here, as `docs --out site` makes its folder.
    await makeFolder({ flag: 'site/', path: docsFolder });
    await buildDocs(docsPage, { specJson: join(repoRoot, 'src/generated/openapi.json'), redoclyCli: redoclyCli() });
  });
} catch (error) {
  console.error(`\n${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

console.log(`Docs: ${pathToFileURL(docsPage).href}`);
process.exitCode = await main(['mock', ...process.argv.slice(2)]);
