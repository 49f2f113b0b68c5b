// A stranger asks the sandbox for a status or an example the operation does not have (`Prefer: code=418`,
// `example=Nope`): the 400 says what it does document, so the next try is the right one.
import { expect, it } from 'vitest';
import { type BaasApiError, createBaasClient } from '../../src/index.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { preferHeaders } from '../../src/testing/prefer.js';

const sandbox = createSandbox({ seed: 'prefer-mistakes' });
const baas = createBaasClient({
  baseUrl: 'https://sandbox.baas.test',
  token: sandbox.clients[0]!.token,
  fetch: sandbox.fetch,
  retry: false,
});
const refusal = async (headers: Record<string, string>): Promise<BaasApiError> =>
  (await baas.listPixKeys({ headers }).catch((error: unknown) => error)) as BaasApiError;

it('a code the operation does not document: 400 listing the ones it does', async () => {
  const error = await refusal(preferHeaders({ code: 418 }));
  expect(error.status).toBe(400);
  expect(error.problem?.detail).toBe(
    'Prefer asks for code=418, which listPixKeys does not document. It documents 200, 400, 401, 403, 422, 429, 500, 503.',
  );
});

it('an example it does not have: 400 listing its examples', async () => {
  const error = await refusal(preferHeaders({ example: 'Nope' }));
  expect(error.status).toBe(400);
  expect(error.problem?.detail).toMatch(
    /^Prefer asks for example=Nope, which listPixKeys does not document\. Its examples: .*\bLastPage\b.*\bRateLimited\b/,
  );
});
