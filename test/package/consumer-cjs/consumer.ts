// A CommonJS consumer as NestJS sets one up: "module": "commonjs" and TypeScript's default
// resolution (node10, which ignores `exports`). Compiled with strict tsc against the installed
// tarball, then run with `require` against the mock the package starts.
import { BaasValidationError, createBaasClient, isValidCpf } from 'baas-pix-contract';
import type { PixKey } from 'baas-pix-contract/types';
import { startMock, type RunningMock } from 'baas-pix-contract/testing';
// The sandbox, in process: this project has @faker-js/faker but neither msw nor @hono/node-server,
// and compiles with skipLibCheck off, so the sandbox's declarations must not need them.
import { createSandbox, type Sandbox } from 'baas-pix-contract/sandbox';
import spec = require('baas-pix-contract/openapi.json');

async function main(): Promise<void> {
  const mock: RunningMock = await startMock({ readyTimeoutMs: 4 * 60_000 });
  try {
    const baas = createBaasClient({ baseUrl: mock.url, token: 'consumer-token', userAgent: 'consumer-cjs/1.0' });
    const keys: PixKey[] = [];
    for await (const key of baas.pixKeys({ limit: 2, maxPages: 1 })) keys.push(key);
    const sandbox: Sandbox = createSandbox({ seed: 'cjs', accountsPerClient: 2, keysPerAccount: 5 });
    const inProcess = createBaasClient({
      baseUrl: 'https://sandbox.baas.example',
      token: sandbox.clients[0]!.token,
      userAgent: 'consumer-cjs/1.0',
      fetch: sandbox.fetch,
    });
    const sandboxKeys = new Set<string>();
    for await (const key of inProcess.pixKeys({ limit: 3 })) sandboxKeys.add(key.id);
    const invalid = await baas
      .updateNaturalPerson({ account: '300541976902', documentNumber: '52998224724', body: { email: 'a@b.co' } })
      .catch((error: unknown) => error);
    console.log(
      JSON.stringify({
        loadedAs: require.resolve('baas-pix-contract').replace(/^.*\//, ''),
        keyTypes: keys.map((k) => k.key_type),
        invalidIsValidationError: invalid instanceof BaasValidationError,
        cpfCheck: isValidCpf('52998224725'),
        specVersion: spec.info.version,
        sandboxKeys: sandboxKeys.size,
        sandboxLoadedAs: require.resolve('baas-pix-contract/sandbox').replace(/^.*\/dist\//, ''),
      }),
    );
  } finally {
    await mock.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
