// `baas-pix-contract docs --out DIR`: the self-contained HTML docs (2.6 MB, so not shipped) rendered
// from the packaged spec by the Redocly CLI installed next to this package.
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { makeFolder } from '../files.js';
import { bundledSpecPath } from '../testing/mock.js';
import { UsageError, defineCommand } from './command.js';
import { buildDocs } from './docs-page.js';
import { CONNECTION_FLAGS, SAFETY_FLAGS } from './flags.js';
import { needPeers, packageSpec, REDOCLY } from './peers.js';

/** The script of the Redocly CLI installed next to this package (an optional peer); `MissingPeerError` if it is not. */
export function redoclyCli(): string {
  const [folder] = needPeers([REDOCLY]);
  const require = createRequire(import.meta.url);
  const manifest = join(folder!, 'package.json');
  const bin = (require(manifest) as { bin: Record<string, string> }).bin;
  return join(folder!, bin.redocly ?? 'bin/cli.js');
}

export const docs = defineCommand({
  name: 'docs',
  summary: 'write the HTML docs of the contract (one offline page) into a folder, or serve them with a try-it panel',
  usage: '--out DIR | --serve --base-url URL [credentials] [options]',
  options: {
    out: {
      type: 'string',
      short: 'o',
      value: 'DIR',
      help: ['folder to write index.html into (created if missing)'],
    },
    serve: {
      type: 'boolean',
      group: 'Serve (a try-it panel whose Send goes through this process):',
      help: [
        'serve the page on 127.0.0.1 with a try-it panel; each Send is made',
        'by this process with the credentials below, which the page never sees',
      ],
    },
    port: {
      type: 'string',
      short: 'p',
      value: 'N',
      group: 'Serve (a try-it panel whose Send goes through this process):',
      help: ['port to listen on, 127.0.0.1 only (default 0: a free one)'],
    },
    'allow-writes': {
      type: 'boolean',
      group: 'Serve (a try-it panel whose Send goes through this process):',
      help: ['let the page send the update too (default: reads only, as verify)'],
    },
    ...CONNECTION_FLAGS,
    ...SAFETY_FLAGS,
  },
  notes: [
    `Needs the Redocly CLI (${packageSpec(REDOCLY)}), an optional peer of this package; without it the`,
    'command says so, with the npm command that installs it, and exits 2.',
    '--serve prints the address to open: it holds a random secret that every request must carry; a',
    'request with another Host or from another origin is refused. The log shows method, masked path',
    'and status only. `sandbox` serves the same page at /docs with the sandbox itself as the target.',
  ],
  async run(values, context) {
    if (values.serve) {
      if (values.out) throw new UsageError('--out and --serve are two uses: write the page, or serve it; give one');
      const { runDocsServe } = await import('./docs-serve.js');
      return runDocsServe(values, context);
    }
    for (const flag of ['port', 'allow-writes', ...Object.keys(CONNECTION_FLAGS)] as const)
      if (values[flag as keyof typeof values] !== undefined)
        throw new UsageError(`--${flag} is for --serve: add --serve, or leave it out to write the page with --out`);
    if (!values.out) throw new UsageError('--out DIR is required: the folder to write index.html into (or --serve)');
    const out = resolve(values.out);
    const page = join(out, 'index.html');
    const cli = redoclyCli();
    await makeFolder({ flag: '--out', path: out });
    await buildDocs(page, { specJson: bundledSpecPath.replace(/\.yaml$/, '.json'), redoclyCli: cli });
    context.out(`docs written to ${page}`);
    return 0;
  },
});
