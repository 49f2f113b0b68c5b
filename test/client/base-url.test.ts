// The one rule for a base URL that ends with an operation's own path (src/base-url.ts), shared by
// createBaasClient and --base-url: the operation is found however the URL ends, and the root given back
// keeps a gateway's prefix. The message's words are pinned in test/client/option-checks.test.ts.
import { describe, expect, it } from 'vitest';
import { operationPathProblem } from '../../src/base-url.js';

const PATHS = ['/v2/api/pix/keys/list-keys', '/v2/api/baas-onboarding/account/natural-person'];
const problem = (url: string) => operationPathProblem(new URL(url), PATHS);

describe('operationPathProblem', () => {
  it.each([
    ['http://127.0.0.1:4020/v2/api/pix/keys/list-keys', 'http://127.0.0.1:4020'],
    ['http://127.0.0.1:4020/v2/api/pix/keys/list-keys/', 'http://127.0.0.1:4020'],
    // Slashes doubled at the end, as a path joined by hand leaves them.
    ['http://127.0.0.1:4020/v2/api/pix/keys/list-keys//', 'http://127.0.0.1:4020'],
    ['https://gw.example/baas/v2/api/baas-onboarding/account/natural-person///', 'https://gw.example/baas'],
  ])('%s ends with an operation: names it and the root to give (%s)', (url, root) => {
    const text = problem(url);
    expect(text).toContain(`(${new URL(url).pathname.replace(/\/+$/, '').replace(/^\/baas/, '')})`);
    expect(text?.endsWith(`: ${root}`)).toBe(true);
  });

  it.each([
    'https://api.baas.example',
    'https://gw.example/v2/api',
    'https://gw.example/v2/api/pix/keys/list-keys-archive',
  ])('%s is a root: no problem', (url) => {
    expect(problem(url)).toBeUndefined();
  });
});
