// The troubleshooting guide quotes each error as the package prints it. The errors the client makes in
// process are made again here (a sandbox in this process, at the guide's URLs) and each quoted line must
// still be `name: message` of the real error, so a reworded message cannot leave the guide stale; both
// languages quote the same lines, and every section of the list is there.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { createBaasClient } from '../../src/index.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { lostZerosRule } from '../../src/cli/batch/input.js';
import { refusalMessage } from '../../src/cli/connection/credentials.js';
import { redactMessage } from '../../src/redact.js';

const PAGES = ['docs/guides/troubleshooting.md', 'docs/guias/troubleshooting.md'];
const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');
/** The lines of the guide's `text` blocks: the messages it quotes. */
const quoted = (path: string) =>
  [...read(path).matchAll(/```text\n([\s\S]*?)```/g)].flatMap(([, block]) => block!.trimEnd().split('\n'));

const shown = (error: unknown) => `${(error as Error).name}: ${(error as Error).message}`;
const failure = (run: () => Promise<unknown>) =>
  run().then(
    () => expect.unreachable('the call succeeded'),
    (error: unknown) => error,
  );

describe('the troubleshooting guide', () => {
  it('has a section for each error a newcomer meets, in both languages alike', async () => {
    const headings = read(PAGES[0]!).match(/^## .+$/gm);
    // The sections, as a snapshot (troubleshooting-sections.txt, `-u` rewrites it from the English
    // page and the diff is reviewed): one dropped by mistake fails here.
    await expect(`${headings!.join('\n')}\n`).toMatchFileSnapshot(
      join(import.meta.dirname, 'troubleshooting-sections.txt'),
    );
    expect(read(PAGES[1]!).match(/^## .+$/gm)).toHaveLength(headings!.length);
    expect(quoted(PAGES[1]!)).toEqual(quoted(PAGES[0]!));
  });

  it('quotes the errors of the client as it makes them now', async () => {
    const sandbox = createSandbox({ seed: 'troubleshooting' });
    const at = (baseUrl: string, extra: object = {}) =>
      createBaasClient({ baseUrl, token: sandbox.clients[0]!.token, fetch: sandbox.fetch, retry: false, ...extra });
    const limited = createSandbox({ seed: 'troubleshooting', rateLimit: { requests: 1, windowMs: 1000 } });
    const busy = createBaasClient({
      baseUrl: 'http://127.0.0.1:4021',
      token: limited.clients[0]!.token,
      fetch: limited.fetch,
      retry: false,
    });
    await busy.listPixKeys();
    const made = [
      await failure(() =>
        createBaasClient({ baseUrl: 'http://127.0.0.1:4020', token: 'sbx_wrong', fetch: sandbox.fetch }).listPixKeys(),
      ),
      await failure(() => at('http://127.0.0.1:4020/api').listPixKeys()),
      await failure(() =>
        at('http://127.0.0.1:4020').updateNaturalPerson({
          account: '184174734423',
          // Its check digits do not match: a CPF written with dots is sent, one that is no CPF is not.
          documentNumber: '774.765.806-06',
          body: { socialName: 'Maria' },
        }),
      ),
      await failure(async () => at('http://api.baas.example.com').listPixKeys()),
      await failure(() => at('http://127.0.0.1:4020', { maxResponseBytes: 1000 }).listPixKeys({ limit: 50 })),
      await failure(() => busy.listPixKeys()),
    ];
    const lines = quoted(PAGES[0]!);
    for (const error of made) expect(lines).toContain(shown(error));
  });

  it("quotes the command line's credential failures as it makes them now", () => {
    // The one place their words come from; test/cli/batch/credentials.test.ts shows each command prints it.
    const source = { kind: 'client credentials', shownTokenUrl: 'http://127.0.0.1:4020/oauth/tokn' } as const;
    const lines = quoted(PAGES[0]!);
    for (const refusal of [
      { by: 'token endpoint', status: 404, failure: 'rejected' },
      { by: 'token endpoint', status: 401, failure: 'rejected', code: 'invalid_client' },
    ] as const)
      expect(lines).toContain(`update-many: ${refusalMessage(source, refusal)}`);
  });

  // Every line the command line prints is masked (src/cli/output.ts): a rule whose own example is
  // CPF-shaped reached the terminal as "(*********90 becomes 1234567890)", which shows neither the zero
  // nor what was lost, while the guide quoted the example unmasked.
  it("quotes the command line's lost-zeros line as the terminal shows it, its example intact", () => {
    for (const [column, cell] of [
      ['DocumentNumber', '1234567890'],
      ['address.postalCode', '1310100'],
    ] as const) {
      const rule = lostZerosRule(column, cell)!;
      expect(redactMessage(rule), column).toBe(rule);
    }
    const shownLine = `line 2: DocumentNumber: ${redactMessage(lostZerosRule('DocumentNumber', '2345678901')!)}`;
    expect(quoted(PAGES[0]!)).toContain(shownLine);
  });

  // The wrong port, as a newcomer meets it: a client with its default retries, a real refused connection.
  it('quotes the network failure of a closed port as a default client reports it', async () => {
    const port = await closedPort();
    const baseUrl = `http://127.0.0.1:${port}`;
    // Only the waits between attempts are shortened; the number of attempts is the default's.
    const baas = createBaasClient({ baseUrl, token: 'sbx_unused', retry: { baseDelayMs: 0, maxDelayMs: 0 } });
    const error = await failure(() => baas.listPixKeys());
    expect(quoted(PAGES[0]!)).toContain(shown(error).replace(baseUrl, 'http://127.0.0.1:4029'));
  });
});

/** A port of 127.0.0.1 that nothing listens on: one the system gave out, then closed. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
