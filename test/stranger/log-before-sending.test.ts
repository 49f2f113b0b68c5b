// A call whose token source failed sent nothing: its error log line said "failed after 0 attempts",
// which reads as a bug of the count. It says that nothing was sent instead; a call that was sent keeps its count.
import { describe, expect, it } from 'vitest';
import { createBaasClient } from '../../src/index.js';
import { createSandbox } from '../../src/sandbox/index.js';

function logged() {
  const lines: string[] = [];
  const log = (message: string) => lines.push(message);
  return { lines, logger: { debug: log, info: log, warn: log, error: log } };
}

describe('the error log line of a call', () => {
  it('a token that could not be had: failed before any attempt was sent', async () => {
    const { lines, logger } = logged();
    const baas = createBaasClient({
      baseUrl: 'https://api.baas.example',
      token: async () => {
        throw new Error('vault unreachable');
      },
      logger,
      logLevel: 'error',
    });
    await expect(baas.listPixKeys()).rejects.toThrow();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^baas: listPixKeys GET \S+ failed before any attempt was sent: BaasAuthError: /);
    expect(lines[0]).not.toContain('0 attempts');
  });

  it('a call that was sent still counts its attempts', async () => {
    const sandbox = createSandbox();
    const { lines, logger } = logged();
    const baas = createBaasClient({
      baseUrl: 'https://sandbox.baas.test',
      token: 'sbx_not_a_token_of_this_sandbox',
      fetch: sandbox.fetch,
      logger,
      logLevel: 'error',
    });
    await expect(baas.listPixKeys()).rejects.toThrow();
    expect(lines[0]).toMatch(/ failed after 1 attempt: BaasApiError: /);
  });
});
