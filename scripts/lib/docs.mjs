import { redocly } from './run.mjs';

export const docsPath = 'docs/index.html';

/** One HTML page with Redoc inlined, so it opens with no network. */
export function buildDocs(output = docsPath) {
  return redocly([
    'build-docs',
    'openapi/openapi.yaml',
    '--inlineBundle',
    '--title',
    'BaaS Customer Update and PIX Key Listing API',
    '--output',
    output,
  ]);
}
