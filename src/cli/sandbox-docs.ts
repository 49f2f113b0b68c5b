// The sandbox's docs page (`baas-pix-contract sandbox` serves it at /docs, on the sandbox's own
// origin): the rendered docs with the try-it panel sending to the sandbox itself, client 1's token and
// its first account filled in. Rendered by the Redocly CLI on the first request (a few seconds), then kept.
import type { Sandbox } from '../sandbox/index.js';
import { bundledSpecPath } from '../testing/mock.js';
import { redoclyCli } from './docs.js';
import { renderDocs } from './docs-page.js';

export const SANDBOX_DOCS_PATH = '/docs';

export const SANDBOX_DOCS_NOTE =
  "Sends to this sandbox (same origin), with client 1's synthetic token and first account filled in. " +
  'Change any field and press Send: the status, header fields and body of its answer show below.';

export function sandboxDocsPage(instance: Sandbox): () => Promise<string> {
  // Async, so a missing Redocly CLI (redoclyCli throws) is the page's 503 saying how to install it.
  return async () => {
    const first = instance.clients[0]!;
    const account = first.accounts[0]!;
    return renderDocs({
      specJson: bundledSpecPath.replace(/\.yaml$/, '.json'),
      redoclyCli: redoclyCli(),
      tryIt: {
        mode: { kind: 'direct', token: first.token, note: SANDBOX_DOCS_NOTE },
        // By the parameters' names as the client takes them (Account → account).
        prefill: { account: account.account, documentNumber: account.documentNumber },
      },
    });
  };
}
