// examples/client-credentials.ts says how many token requests it made, counted from the token events:
// one with client credentials, none when BAAS_TOKEN gave the token (it said "one token request" either way).
import { describe, expect, it } from 'vitest';
import { listeningSandbox } from '../support/listening-sandbox.js';
import { baseEnv, runExample, shown } from './run-example.js';

describe('the client-credentials example counts its token requests', () => {
  const listening = listeningSandbox('token-count');

  // (examples/pt-BR/'s copy has the same code, doc-blocks.test.ts checks it.)
  it('1 with client credentials (the sandbox in process)', async () => {
    const run = await runExample('client-credentials.ts', baseEnv());
    expect(run.code, shown(run)).toBe(0);
    expect(run.stdout, shown(run)).toMatch(/^two pages, 4 keys, 1 token request$/m);
    expect(run.stdout.match(/^token fetched/gm), shown(run)).toHaveLength(1);
  });

  it('0 with BAAS_TOKEN: no token was asked for', async () => {
    const run = await runExample('client-credentials.ts', {
      ...baseEnv(),
      BAAS_BASE_URL: listening.url,
      BAAS_TOKEN: listening.client.token,
    });
    expect(run.code, shown(run)).toBe(0);
    expect(run.stdout, shown(run)).toMatch(/^two pages, 4 keys, 0 token requests$/m);
    expect(run.stdout, shown(run)).not.toMatch(/one token request|token fetched/);
  });
});
