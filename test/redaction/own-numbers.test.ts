// The package's own numbers are never eaten by the CPF masking. Eleven digits joined by anything but
// letters read as a CPF (src/redact.ts), and a random UUID holds such a run about once in thirty
// (`c39ef702-c253-49b0-b374-f18386048867`, the last group `f` then eleven digits): the sandbox's request
// ids, shown in an error's requestId, a log line and on the command line, read `f*********67`. They are
// drawn again until the masking leaves them whole.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBaasClient } from '../../src/index.js';
import { redactText } from '../../src/redact.js';
import { sandboxRequestId } from '../../src/sandbox/handler.js';
import { createSandbox } from '../../src/sandbox/index.js';

// A UUID the masking eats, and one it leaves.
const EATEN = 'c39ef702-c253-49b0-b374-f18386048867';
const WHOLE = '0f8c2d1e-4711-4123-8901-a1b2c3d4e5f6';

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the sandbox's request ids", () => {
  it('a UUID the masking would eat is drawn again', () => {
    expect(redactText(EATEN)).not.toBe(EATEN);
    expect(redactText(WHOLE)).toBe(WHOLE);
    vi.spyOn(globalThis.crypto, 'randomUUID').mockReturnValueOnce(EATEN).mockReturnValueOnce(WHOLE);
    expect(sandboxRequestId()).toBe(WHOLE);
  });

  it('every id of many requests, as the client shows it, is the one the sandbox sent', async () => {
    const sandbox = createSandbox({ clients: 1, accountsPerClient: 1, keysPerAccount: 0 });
    const ids: string[] = [];
    const client = createBaasClient({
      baseUrl: 'https://sandbox.baas.test',
      token: sandbox.clients[0]!.token,
      retry: false,
      fetch: async (input, init) => {
        const response = await sandbox.fetch(input, init);
        ids.push(response.headers.get('x-request-id')!);
        return response;
      },
    });
    const uuids = vi.spyOn(globalThis.crypto, 'randomUUID');
    // The first id drawn is one the masking eats: the answer carries the next.
    uuids.mockReturnValueOnce(EATEN);
    for (let i = 0; i < 5; i += 1) {
      const error = (await client
        .updateNaturalPerson({ account: '999999', documentNumber: '529.982.247-25', body: { socialName: 'Maria' } })
        .catch((e: unknown) => e)) as { requestId?: string };
      expect(error.requestId).toBe(ids.at(-1));
    }
    expect(ids).not.toContain(EATEN);
    for (const id of ids) expect(redactText(id)).toBe(id);
  });
});
