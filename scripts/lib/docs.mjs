import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { assumptionsTable } from './assumptions.mjs';
import { repoRoot } from './paths.mjs';
import { redocly, run } from './run.mjs';

export const docsPath = 'docs/index.html';
export const DOCS_TITLE = 'BaaS Customer Update and PIX Key Listing API';

// Redoc 3 loads its attribution logo from a CDN even with --inlineBundle. The page must work with
// no network and send nothing out, so the logo is swapped for an inline SVG (the link stays).
const CDN_LOGO = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const INLINE_LOGO =
  'data:image/svg+xml,' +
  encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="54" height="14"><text x="0" y="11" font-family="sans-serif" font-size="11" fill="#0044d4">Redocly</text></svg>');

/**
 * One HTML page with Redoc inlined, so it opens with no network. Redoc does not render vendor
 * extensions, so the `x-assumption` choices are rendered into the intro as a table first.
 * The command line (`baas-pix-contract docs`) passes the packaged spec and the Redocly CLI it found.
 * @param {string} [output]
 * @param {{ specJson?: string, redoclyCli?: string }} [options]
 */
export async function buildDocs(output = docsPath, { specJson = join(repoRoot, 'src/generated/openapi.json'), redoclyCli } = {}) {
  const spec = JSON.parse(await readFile(specJson, 'utf8'));
  spec.info.description += `\n\n### Every assumption\n\n${assumptionsTable(spec)}\n`;
  const dir = await mkdtemp(join(tmpdir(), 'baas-docs-'));
  try {
    const input = join(dir, 'openapi.json');
    await writeFile(input, JSON.stringify(spec));
    const target = resolve(repoRoot, output);
    const args = ['build-docs', input, '--inlineBundle', '--title', DOCS_TITLE, '--output', target];
    await (redoclyCli ? run(process.execPath, [redoclyCli, ...args]) : redocly(args));
    const html = await readFile(target, 'utf8');
    await writeFile(target, html.replace(CDN_LOGO, INLINE_LOGO));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
