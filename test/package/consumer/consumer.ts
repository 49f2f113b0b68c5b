// A consumer's file: compiled with strict tsc against the installed tarball, then run against the
// mock the package itself starts. Everything a README reader would import is used once.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  ApiError,
  ValidationError,
  createBaasClient,
  validateNaturalPersonUpdate,
  type NaturalPersonUpdate,
  type PixKey,
  type ValidationIssue,
} from 'baas-pix-contract';
import { preferHeaders, startMock } from 'baas-pix-contract/testing';
import bundledJson from 'baas-pix-contract/openapi.json' with { type: 'json' };

const body: NaturalPersonUpdate = { email: 'maria.silva@email.com.br' };
const yamlSpec = await readFile(fileURLToPath(import.meta.resolve('baas-pix-contract/openapi.yaml')), 'utf8');

// No `spec` option: the mock serves the spec packed in dist/generated/.
const mock = await startMock();
try {
  const baas = createBaasClient({ baseUrl: mock.url, token: 'consumer-token', userAgent: 'consumer/1.0' });
  const updated = await baas.updateNaturalPerson({ account: '300541976902', documentNumber: '52998224725', body });
  const keys: PixKey[] = [];
  for await (const key of baas.pixKeys({ limit: 2, maxPages: 1 })) keys.push(key);

  // A CPF with a wrong check digit: refused before anything is sent.
  const invalid = await baas
    .updateNaturalPerson({ account: '300541976902', documentNumber: '52998224724', body })
    .catch((error: unknown) => error);
  const limited = await createBaasClient({ baseUrl: mock.url, token: 'consumer-token' })
    .listPixKeys({ headers: preferHeaders({ code: 429 }), retry: false })
    .catch((error: unknown) => error);
  const issues: ValidationIssue[] = validateNaturalPersonUpdate({ phoneNumber: '123' });

  console.log(
    JSON.stringify({
      updated,
      keyTypes: keys.map((k) => k.key_type),
      validatorIssues: issues.map((i) => i.path),
      invalidIsValidationError: invalid instanceof ValidationError,
      limitedStatus: limited instanceof ApiError ? limited.status : null,
      specVersions: [bundledJson.info.version, /^ {2}version: (\S+)$/m.exec(yamlSpec)?.[1]],
    }),
  );
} finally {
  await mock.stop();
}
