// Without the optional peer dependency undici, a TLS fetch cannot be built: the message says what
// to install and where the option was given, and keeps the import failure as its cause.
import { expect, it, vi } from 'vitest';
import { createTlsFetch } from '../../src/tls/fetch.js';

vi.mock('undici', () => {
  throw new Error('Cannot find package undici');
});

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

it.each([
  [undefined, 'tls needs the optional peer dependency undici: npm install undici@^7'],
  ['clientCredentials.tls', 'clientCredentials.tls needs the optional peer dependency undici: npm install undici@^7'],
])('where %s: names the package and the version to install', async (where, message) => {
  const error = (await createTlsFetch({ ca: CA }, where ? { where } : {}).then(
    () => undefined,
    (e: unknown) => e,
  )) as Error;
  expect(error).toBeInstanceOf(Error);
  expect(error.message).toBe(message);
  expect(error.cause).toBeInstanceOf(Error);
});
