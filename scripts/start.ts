// `npm start`: the whole pipeline a person wants, then the mock in the foreground.
// lint -> bundle + generate -> docs -> mock on 127.0.0.1:4010 (PORT overrides).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { redocly, run } from './lib/run.mjs';
import { repoRoot } from './lib/paths.mjs';
import { docsPath, buildDocs } from './lib/docs.mjs';
import { startMock } from '../src/testing/mock.js';

async function step(name: string, work: () => Promise<unknown>): Promise<void> {
  const started = Date.now();
  process.stdout.write(`• ${name} … `);
  await work();
  console.log(`done in ${Date.now() - started} ms`);
}

try {
  await step('lint (redocly, recommended-strict + project rules)', () => redocly(['lint']));
  await step('bundle and generate types (src/generated/)', () => run(process.execPath, ['scripts/generate.mjs']));
  await step('docs (one self-contained HTML page)', () => buildDocs());
} catch (error) {
  console.error('\n' + (error instanceof Error ? error.message : String(error)));
  process.exit(1);
}

const mock = await startMock({ port: Number(process.env.PORT ?? 4010) });
console.log(`
Docs: ${pathToFileURL(resolve(repoRoot, docsPath)).href}
Mock: ${mock.url}  (Prism, serving src/generated/openapi.yaml)

  curl -H 'Authorization: Bearer test' -H 'User-Agent: demo/1' ${mock.url}/v2/api/pix/keys/list-keys

Ctrl-C stops the mock.`);
