// `baas-pix-contract docs --out DIR`: the self-contained HTML docs (2.6 MB, so not shipped) rendered
// from the packaged spec by the Redocly CLI installed next to this package.
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { makeFolder } from '../files.js';
import { bundledSpecPath } from '../testing/mock.js';
import { UsageError, defineCommand } from './command.js';
import { buildDocs } from './docs-page.js';

/** The script of the Redocly CLI installed next to this package (an optional peer). */
export function redoclyCli(): string {
  const require = createRequire(import.meta.url);
  try {
    const manifest = require.resolve('@redocly/cli/package.json');
    const bin = (require(manifest) as { bin: Record<string, string> }).bin;
    return join(dirname(manifest), bin.redocly ?? 'bin/cli.js');
  } catch {
    throw new Error(
      'docs needs the Redocly CLI: install it with `npm install --save-dev @redocly/cli@^2` (an optional peer of this package).',
    );
  }
}

export const docs = defineCommand({
  name: 'docs',
  summary: 'write the HTML docs of the contract (one page that works offline) into a folder',
  usage: '--out DIR',
  options: {
    out: {
      type: 'string',
      short: 'o',
      value: 'DIR',
      help: ['folder to write index.html into (required; created if missing)'],
    },
  },
  notes: ['Needs @redocly/cli@^2 installed next to this package (an optional peer).'],
  async run(values, context) {
    if (!values.out) throw new UsageError('--out DIR is required: the folder to write index.html into');
    const out = resolve(values.out);
    const page = join(out, 'index.html');
    const cli = redoclyCli();
    await makeFolder({ flag: '--out', path: out });
    await buildDocs(page, { specJson: bundledSpecPath.replace(/\.yaml$/, '.json'), redoclyCli: cli });
    context.out(`docs written to ${page}`);
    return 0;
  },
});
