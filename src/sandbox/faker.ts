// Faker is an optional peer: loaded here only, when a sandbox is created, never by the client entry;
// or passed by the caller where nothing can be required (a Worker's bundle).
import type { Faker } from '@faker-js/faker';

type FakerClass = new (options: { locale: unknown }) => Faker;

let fakerClass: FakerClass | undefined;
let ptBr: unknown;

/** Faker as the package requires it itself (node_modules), loaded once. */
function requiredFaker(): { Class: FakerClass; locale: unknown } {
  if (!fakerClass) {
    let load: (id: string) => unknown;
    try {
      // Reached at run time, not imported: a runtime without node:module (a Worker) can load the sandbox.
      const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
      const nodeModule = runtime?.getBuiltinModule?.('node:module') as typeof import('node:module') | undefined;
      load = nodeModule!.createRequire(import.meta.url);
    } catch (error) {
      // No module files to require from, as in a bundled Worker: Faker must come from the caller's bundle.
      throw new Error(
        "baas-pix-contract/sandbox cannot require @faker-js/faker on this runtime (no module files, as in a Worker): pass it, `createSandbox({ faker })` with `import { faker } from '@faker-js/faker/locale/pt_BR'`.",
        { cause: error },
      );
    }
    let shared: Faker;
    try {
      // Synchronous, so createSandbox stays synchronous (require of an ES module: Node 20.19+).
      shared = (load('@faker-js/faker/locale/pt_BR') as { faker: Faker }).faker;
    } catch (error) {
      // Faker 10 is ES modules only: Jest's CommonJS runtime cannot require it (Node's own require
      // can, from 20.19). Faker 9.9 has the same API and ships CommonJS.
      const esmOnly = /Must use import|ERR_REQUIRE_ESM|ES Module/i.test(String((error as Error).message));
      throw new Error(
        esmOnly
          ? 'baas-pix-contract/sandbox could not require @faker-js/faker 10 (ES modules only) here, as in Jest with CommonJS: install @faker-js/faker@^9.9 (CommonJS, the same API) with `npm install --save-dev @faker-js/faker@^9.9`.'
          : 'baas-pix-contract/sandbox needs @faker-js/faker for its seeded data: install it with `npm install --save-dev @faker-js/faker@^10` (or @^9.9 for Jest with CommonJS).',
        { cause: error },
      );
    }
    fakerClass = shared.constructor as unknown as FakerClass;
    ptBr = shared.rawDefinitions;
  }
  return { Class: fakerClass, locale: ptBr };
}

/** Whether `given` is a Faker (`createSandbox({ faker })`): what the sandbox reads of it. */
export function isGivenFaker(given: unknown): boolean {
  const faker = given as Partial<Faker> | null;
  return (
    typeof faker === 'object' &&
    faker !== null &&
    typeof faker.seed === 'function' &&
    typeof faker.rawDefinitions === 'object' &&
    typeof faker.constructor === 'function'
  );
}

/** The class and locale of a Faker the caller passed (`createSandbox({ faker })`, checked by its option rule). */
export function givenFaker(given: unknown): { Class: FakerClass; locale: unknown } {
  const faker = given as Faker;
  return { Class: faker.constructor as unknown as FakerClass, locale: faker.rawDefinitions };
}

/**
 * A Faker of its own (pt_BR with its fallbacks), seeded, so no other user of Faker is disturbed: of
 * the class and locale of `given` when the caller passed one, else of the Faker the package requires.
 */
export function seededFaker(seed: number, given?: unknown): Faker {
  const { Class, locale } = given === undefined ? requiredFaker() : givenFaker(given);
  const faker = new Class({ locale });
  faker.seed(seed);
  return faker;
}
