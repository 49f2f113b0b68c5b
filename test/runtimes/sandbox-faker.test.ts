// Faker passed by the caller (`createSandbox({ faker })`), for a runtime where the package cannot
// require it (a Worker's bundle): the same data as with the Faker the package requires; anything
// else is refused naming the option; and where no require can be made, the error says to pass it.
import { faker } from '@faker-js/faker/locale/pt_BR';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';

afterEach(() => {
  vi.restoreAllMocks();
  vi.resetModules();
});

const keysOf = async (sandbox: ReturnType<typeof createSandbox>) => {
  const response = await sandbox.fetch('https://sandbox.baas.test/v2/api/pix/keys/list-keys?limit=100', {
    headers: { authorization: `Bearer ${sandbox.clients[0]!.token}`, 'user-agent': 'runtimes-test/1' },
  });
  expect(response.status).toBe(200);
  return response.text();
};

describe('createSandbox({ faker })', () => {
  it('gives the same clients, customers and keys, byte for byte, as the Faker the package requires', async () => {
    const options = { seed: 'passed', clients: 2, accountsPerClient: 3, keysPerAccount: 7 };
    const required = createSandbox(options);
    const passed = createSandbox({ ...options, faker });
    expect(passed.clients).toEqual(required.clients);
    expect(JSON.stringify(passed.snapshot())).toBe(JSON.stringify(required.snapshot()));
    expect(await keysOf(passed)).toBe(await keysOf(required));
    // Seeding its own instance leaves the caller's Faker as it was.
    faker.seed(42);
    const before = faker.person.firstName();
    faker.seed(42);
    createSandbox({ seed: 'other', faker });
    expect(faker.person.firstName()).toBe(before);
  });

  it.each([
    ['an empty object', {}],
    ['null', null],
    ['a string', 'faker'],
    ['the Faker module rather than its faker', { faker }],
  ])('refuses %s, naming the option', (_name, given) => {
    expect(() => createSandbox({ faker: given as never })).toThrow(TypeError);
    expect(() => createSandbox({ faker: given as never })).toThrow(/^createSandbox: faker must be/);
  });

  it.each([
    ['no node:module at all (a Worker without nodejs_compat)', undefined],
    ['a createRequire that throws (a bundled Worker: no file URL)', 'throws'],
  ])('with %s, the error says to pass faker, keeps the cause, and passing it works', async (_name, kind) => {
    const cause = new TypeError('The argument "filename" must be a file URL');
    const nodeModule =
      kind === undefined
        ? undefined
        : {
            createRequire: () => {
              throw cause;
            },
          };
    const real = process.getBuiltinModule.bind(process);
    vi.spyOn(process, 'getBuiltinModule').mockImplementation(((id: string) =>
      id === 'node:module' ? nodeModule : real(id)) as typeof process.getBuiltinModule);
    vi.resetModules();
    const { createSandbox: fresh } = await import('../../src/sandbox/index.js');
    let error: Error | undefined;
    try {
      fresh({ seed: 'no-require' });
    } catch (caught) {
      error = caught as Error;
    }
    expect(error?.message).toContain('createSandbox({ faker })');
    if (kind === 'throws') expect(error?.cause).toBe(cause);
    else expect(error?.cause).toBeInstanceOf(TypeError);
    expect(fresh({ seed: 'no-require', faker }).clients).toHaveLength(1);
  });
});
