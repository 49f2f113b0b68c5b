// verify against the package's own Prism mock (started once for the run by the global setup).
// Its default list example is one complete page (`next: null`), so a walk of several pages ends
// after the first, with no drift; a mock whose cursor repeats is in the drift matrix.
import { inject, describe, expect, it } from 'vitest';
import { main } from './verify-cli.js';

const run = async (pages: string) => {
  const out: string[] = [];
  const code = await main(['--base-url', inject('mockUrl'), '--token', 'mock-token-0123456789', '--pages', pages], {
    out: (t) => out.push(t),
    err: (t) => out.push(t),
    env: {},
  });
  return { code, text: out.join('\n') };
};

describe('verify against the Prism mock', () => {
  it('reports no drift on one page, the error probes included', async () => {
    const { code, text } = await run('1');
    expect(text).toMatch(
      /list-keys without a token\s+401 application\/problem\+json\s+401 application\/problem\+json\s+OK/,
    );
    expect(text).toMatch(/list-keys with limit=201\s+.*\s+422 application\/problem\+json\s+OK/);
    expect(text).toMatch(/no drift/);
    expect(code).toBe(0);
  });

  it('reports no drift when asked for more pages than the mock has', async () => {
    const { code, text } = await run('3');
    expect(text).not.toMatch(/must not repeat the cursor/);
    expect(text).toMatch(/no drift/);
    expect(code).toBe(0);
  });
});
