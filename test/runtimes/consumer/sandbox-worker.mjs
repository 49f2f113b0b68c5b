// The sandbox served by a Cloudflare Worker: its fetch handler as the Worker's. Faker is passed in,
// from the Worker's own bundle, since a Worker has no node_modules to require it from.
import { faker } from '@faker-js/faker/locale/pt_BR';
import { createSandbox } from 'baas-pix-contract/sandbox';

const sandbox = createSandbox({ seed: 'worker', accountsPerClient: 3, keysPerAccount: 4, faker });

export default {
  fetch: (request) => sandbox.fetch(request),
};
