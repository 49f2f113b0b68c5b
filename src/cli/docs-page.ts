// The HTML docs page: one file with Redoc inlined, rendered by the Redocly CLI from the bundled spec,
// so it opens with no network. Used by `baas-pix-contract docs` and by `npm start`.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { assumptionsTable } from './assumptions.js';
import { type TryItMode, tryItOperations, tryItSnippet } from './try-it.js';
import { beginsWith, WholeFile, withScratchFolder, writeWholeFile } from '../files.js';

export const DOCS_TITLE = 'BaaS Customer Update and PIX Key Listing API';

// Redoc 3 loads its attribution logo from a CDN even with --inlineBundle. The page must work with
// no network and send nothing out, so the logo is swapped for an inline SVG (the link stays).
const CDN_LOGO = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const INLINE_LOGO =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="54" height="14"><text x="0" y="11" font-family="sans-serif" font-size="11" fill="#0044d4">Redocly</text></svg>',
  );

// With telemetry on, the CLI reports usage and Redoc 3 makes the reader's browser post traces.
// Redoc shows an x-codeSamples entry only when its label (or lang) is among the configured
// languages, so the list is every label the spec's samples carry, in their order.
function config(spec: DocsSpec): string {
  const labels: string[] = [];
  for (const item of Object.values(spec.paths ?? {}))
    for (const operation of Object.values(item ?? {}))
      for (const sample of (operation as { 'x-codeSamples'?: { lang: string; label?: string }[] })['x-codeSamples'] ??
        [])
        if (!labels.some((label) => label === (sample.label ?? sample.lang))) labels.push(sample.label ?? sample.lang);
  const languages = labels.map((label) => `      - lang: ${JSON.stringify(label)}\n`).join('');
  return `telemetry: off\n${languages ? `openapi:\n  codeSamples:\n    languages:\n${languages}` : ''}`;
}

type DocsSpec = { info: { description: string }; paths?: Record<string, Record<string, unknown> | undefined> };

const run = promisify(execFile);

export interface DocsSources {
  /** The bundled spec, as JSON. */
  specJson: string;
  /** The Redocly CLI's script, run with this Node. */
  redoclyCli: string;
  /** The try-it panel: how it sends, and values of the caller's own for some parameters. */
  tryIt?: { mode: TryItMode; prefill?: Readonly<Record<string, string>> };
}

// How every page of ours begins (the comment after the doctype keeps browsers in standards mode): how an
// existing page is known to be ours, and so may be replaced. Any other file is left alone (src/files.ts).
const PAGE_START = '<!DOCTYPE html>\n<!-- baas-pix-contract docs -->\n';
const isDocsPage = beginsWith(PAGE_START);
const NOT_OURS = 'it is not a page this command wrote, so it is not replaced; choose another folder';

/**
 * The page as HTML, from the bundled spec. Redoc does not render vendor extensions, so the
 * `x-assumption` choices are rendered into the intro as a table first. With `tryIt`, the page gets the
 * try-it panel (./try-it.ts) too.
 */
export async function renderDocs({ specJson, redoclyCli, tryIt }: DocsSources): Promise<string> {
  const spec = JSON.parse(await readFile(specJson, 'utf8')) as DocsSpec;
  spec.info.description += `\n\n### Every assumption\n\n${assumptionsTable(spec)}\n`;
  return withScratchFolder('baas-docs-', async (scratch) => {
    await scratch.write('openapi.json', JSON.stringify(spec));
    // Run beside a config of its own, so no redocly.yaml of the caller's folder changes the page.
    await scratch.write('redocly.yaml', config(spec));
    const built = scratch.file('index.html');
    await run(
      process.execPath,
      [
        redoclyCli,
        'build-docs',
        scratch.file('openapi.json'),
        '--inlineBundle',
        '--title',
        DOCS_TITLE,
        '--output',
        built,
      ],
      { cwd: scratch.path, maxBuffer: 64 * 1024 * 1024 },
    );
    let html = (await readFile(built, 'utf8')).replace(/^\s*<!DOCTYPE html>\s*/i, '').replace(CDN_LOGO, INLINE_LOGO);
    if (tryIt) {
      // An empty icon in the head keeps the browser from asking the serving process for /favicon.ico.
      html = html.replace(/<head>/i, '<head>\n  <link rel="icon" href="data:,">');
      const end = html.lastIndexOf('</body>');
      const snippet = tryItSnippet({ ...tryIt, operations: tryItOperations(spec, tryIt.prefill) });
      html = end < 0 ? html + snippet : html.slice(0, end) + snippet + html.slice(end);
    }
    return `${PAGE_START}${html}`;
  });
}

/** Writes the page (without a try-it panel: a file has nowhere to send from) to `output`. */
export async function buildDocs(output: string, sources: Omit<DocsSources, 'tryIt'>): Promise<void> {
  const page = { flag: '--out', path: resolve(output) };
  // Refused before the few seconds of rendering, and checked again when the page is put in place.
  await WholeFile.check(page, isDocsPage, NOT_OURS);
  const html = await renderDocs(sources);
  // A page holds no data: readable by all, as a web server serving it needs.
  await writeWholeFile(page, html, isDocsPage, NOT_OURS, 0o644);
}
