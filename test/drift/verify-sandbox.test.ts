// verify against the package's own stateful sandbox, served over HTTP in this process on a free port
// (always stopped): no drift. The sandbox pages for real, so the walk ends with `cursor.next` null and
// the assumption is seen to hold. Redocly respect on the same sandbox, the second reader, is a matrix
// case (respect.matrix.test.ts).
import { describe, expect, it } from 'vitest';
import { listeningSandbox } from '../support/listening-sandbox.js';
import { main } from './verify-cli.js';

const running = listeningSandbox('verify', { keysPerAccount: 5 });
const token = running.client.token;

describe('the sandbox against the contract', () => {
  it('verify walks every page (10 keys, 4 a page) and reports no drift', async () => {
    const lines: string[] = [];
    const code = await main(['--base-url', running.url, '--token', token, '--pages', '5', '--limit', '4'], {
      out: (t) => lines.push(t),
      err: (t) => lines.push(t),
      env: {},
    });
    const text = lines.join('\n');
    expect(text).toMatch(/list-keys page 3\s+.*200 application\/json, 2 keys\s+OK/);
    expect(text).toMatch(/cursor\.next null on the last page\s+.*HELD/);
    expect(text).toMatch(/list-keys without a token\s+.*401 application\/problem\+json\s+OK/);
    expect(text).toMatch(/list-keys with limit=201\s+.*OK/);
    expect(text).toMatch(/no drift/);
    expect(text).not.toContain(token);
    expect(code).toBe(0);
  });
});
