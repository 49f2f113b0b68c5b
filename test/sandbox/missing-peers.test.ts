// The sandbox's optional peers (Faker, @hono/node-server, msw): when one cannot be loaded, the error
// names the package and the command that installs it, and keeps the loader's error as its cause.
// Each test loads the sandbox's modules afresh with the peer's loading made to fail.
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.restoreAllMocks();
  vi.doUnmock('@hono/node-server');
  vi.doUnmock('msw');
  vi.resetModules();
});

// vitest wraps what a mock factory throws; the cause is that wrapped error.
const failing = (message: string) => () => {
  throw new Error(message);
};

describe('a missing optional peer', () => {
  it('Faker: the install command, or Faker 9.9 where only CommonJS can be required', async () => {
    const cases: [string, string][] = [
      [
        "Cannot find module '@faker-js/faker/locale/pt_BR'",
        'baas-pix-contract/sandbox needs @faker-js/faker for its seeded data: install it with `npm install --save-dev @faker-js/faker@^10` (or @^9.9 for Jest with CommonJS).',
      ],
      [
        'Must use import to load ES Module: faker.js',
        'baas-pix-contract/sandbox could not require @faker-js/faker 10 (ES modules only) here, as in Jest with CommonJS: install @faker-js/faker@^9.9 (CommonJS, the same API) with `npm install --save-dev @faker-js/faker@^9.9`.',
      ],
      [
        'require() failed: ERR_REQUIRE_ESM',
        'baas-pix-contract/sandbox could not require @faker-js/faker 10 (ES modules only) here, as in Jest with CommonJS: install @faker-js/faker@^9.9 (CommonJS, the same API) with `npm install --save-dev @faker-js/faker@^9.9`.',
      ],
      [
        'require() of es module faker.js not supported',
        'baas-pix-contract/sandbox could not require @faker-js/faker 10 (ES modules only) here, as in Jest with CommonJS: install @faker-js/faker@^9.9 (CommonJS, the same API) with `npm install --save-dev @faker-js/faker@^9.9`.',
      ],
    ];
    for (const [thrown, expected] of cases) {
      vi.resetModules();
      const cause = new Error(thrown);
      const real = process.getBuiltinModule.bind(process);
      vi.spyOn(process, 'getBuiltinModule').mockImplementation(((id: string) =>
        id === 'node:module'
          ? {
              createRequire: () => () => {
                throw cause;
              },
            }
          : real(id)) as typeof process.getBuiltinModule);
      const { createSandbox } = await import('../../src/sandbox/index.js');
      let error: Error | undefined;
      try {
        createSandbox({ seed: 'no-faker' });
      } catch (caught) {
        error = caught as Error;
      }
      expect([thrown, error?.message, error?.cause]).toEqual([thrown, expected, cause]);
    }
  });

  it('@hono/node-server: listen() names it', async () => {
    vi.doMock('@hono/node-server', failing('Cannot find package @hono/node-server'));
    const { createSandbox } = await import('../../src/sandbox/index.js');
    const error = (await createSandbox({ seed: 'no-hono' })
      .listen()
      .catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(
      'sandbox.listen() needs @hono/node-server: install it with `npm install --save-dev @hono/node-server@^2`.',
    );
    expect(error.cause).toBeInstanceOf(Error);
  });

  it("msw: createMswHandlers names it when msw's `http` is not passed", async () => {
    vi.doMock('msw', failing('Cannot find package msw'));
    const { createSandbox, createMswHandlers } = await import('../../src/sandbox/index.js');
    const error = (await createMswHandlers(createSandbox({ seed: 'no-msw' }), {
      baseUrl: 'https://baas.example',
    }).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe('createMswHandlers needs msw 2: install it with `npm install --save-dev msw@^2`.');
    expect(error.cause).toBeInstanceOf(Error);
  });
});
