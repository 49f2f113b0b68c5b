// `baas-pix-contract mock`: Prism serving the packaged spec, behind the request log.
import { startMock } from '../testing/mock.js';
import { defineCommand } from './command.js';
import { listenAddress, serveUntilStopped, serverDetails, serverOptions } from './server.js';

const DEFAULT_PORT = 4010;

export const mock = defineCommand({
  name: 'mock',
  summary: 'serve the contract with Prism (examples, or generated responses with --dynamic)',
  usage: '[--port N] [--host H] [--dynamic] [--seed S] [--errors] [--spec FILE]',
  details: [
    ...serverDetails(DEFAULT_PORT),
    '--dynamic      generate responses from the schemas instead of serving the examples',
    '--seed S       seed for --dynamic, so that a run can be repeated',
    '--errors       answer with an error when a response would break the contract',
    '--spec FILE    serve another OpenAPI document (default: the one in this package)',
    'Needs @stoplight/prism-cli@~5.14 installed next to this package (an optional peer).',
  ],
  options: {
    ...serverOptions,
    dynamic: { type: 'boolean' },
    seed: { type: 'string' },
    errors: { type: 'boolean' },
    spec: { type: 'string' },
  },
  async run(values, _positionals, context) {
    const address = listenAddress(values, DEFAULT_PORT);
    // Prism itself stays on a free loopback port; only the request log listens where asked.
    const prism = await startMock({
      ...(values.spec === undefined ? {} : { spec: values.spec }),
      ...(values.seed === undefined ? {} : { seed: values.seed }),
      dynamic: values.dynamic ?? false,
      errors: values.errors ?? false,
    });
    return serveUntilStopped('Mock', prism, address, context, (url) => [
      `  try: curl -H 'Authorization: Bearer test' -H 'User-Agent: demo/1' ${url}/v2/api/pix/keys/list-keys`,
    ]);
  },
});
