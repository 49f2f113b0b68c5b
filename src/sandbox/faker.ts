// Faker is an optional peer: loaded here only, when a sandbox is created, never by the client entry.
import { createRequire } from 'node:module';
import type { Faker } from '@faker-js/faker';

let fakerClass: (new (options: { locale: unknown }) => Faker) | undefined;
let ptBr: unknown;

/** A Faker of its own (pt_BR with its fallbacks), seeded, so no other user of Faker is disturbed. */
export function seededFaker(seed: number): Faker {
  if (!fakerClass) {
    let shared: Faker;
    try {
      // Synchronous, so createSandbox stays synchronous (require of an ES module: Node 20.19+).
      shared = (createRequire(import.meta.url)('@faker-js/faker/locale/pt_BR') as { faker: Faker }).faker;
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
    fakerClass = shared.constructor as unknown as new (options: { locale: unknown }) => Faker;
    ptBr = shared.rawDefinitions;
  }
  const faker = new fakerClass!({ locale: ptBr });
  faker.seed(seed);
  return faker;
}
