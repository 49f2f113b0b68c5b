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
      throw new Error(
        'baas-pix-contract/sandbox needs @faker-js/faker for its seeded data: install it with `npm install --save-dev @faker-js/faker@^10`.',
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
