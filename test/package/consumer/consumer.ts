// A consumer's file: compiled with strict tsc against the installed tarball, then run against the
// mock the package itself starts. Everything a README reader would import is used once.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  BaasApiError,
  BaasValidationError,
  createBaasClient,
  validateNaturalPersonUpdate,
  type ValidationIssue,
} from 'baas-pix-contract';
import type { NaturalPersonUpdate, PixKey } from 'baas-pix-contract/types';
import { preferHeaders, startMock } from 'baas-pix-contract/testing';
import { createSandbox } from 'baas-pix-contract/sandbox';
import bundledJson from 'baas-pix-contract/openapi.json' with { type: 'json' };

const body: NaturalPersonUpdate = { email: 'maria.silva@email.com.br' };
const yamlSpec = await readFile(fileURLToPath(import.meta.resolve('baas-pix-contract/openapi.yaml')), 'utf8');

// No `spec` option: the mock serves the spec packed in dist/generated/. The ready wait is a backstop:
// the matrix starts six of these at once on two cores, and a start must not fail for being slow.
const mock = await startMock({ readyTimeoutMs: 4 * 60_000 });
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

  // The sandbox over HTTP (@hono/node-server, an optional peer); through msw: consumer-msw.ts.
  const sandbox = createSandbox({ seed: 'esm', accountsPerClient: 2, keysPerAccount: 5 });
  const server = await sandbox.listen();
  let overHttp = 0;
  try {
    const viaHttp = createBaasClient({
      baseUrl: server.url,
      token: sandbox.clients[0]!.token,
      userAgent: 'consumer/1.0',
    });
    for await (const key of viaHttp.pixKeys({ limit: 4 })) if (key.id) overHttp += 1;
  } finally {
    await server.stop();
  }

  console.log(
    JSON.stringify({
      updated,
      keyTypes: keys.map((k) => k.key_type),
      validatorIssues: issues.map((i) => i.path),
      invalidIsValidationError: invalid instanceof BaasValidationError,
      limitedStatus: limited instanceof BaasApiError ? limited.status : null,
      specVersions: [bundledJson.info.version, /^ {2}version: (\S+)$/m.exec(yamlSpec)?.[1]],
      sandbox: { overHttp },
    }),
  );
} finally {
  await mock.stop();
}
