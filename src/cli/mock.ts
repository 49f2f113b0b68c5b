// `baas-pix-contract mock`: Prism serving the packaged spec, behind the request log.
import { startMock } from '../testing/mock.js';
import { defineCommand } from './command.js';
import { tryCurl } from './curl.js';
import { needPeers, packageSpec, PRISM } from './peers.js';
import { listenAddress, serveUntilStopped, serverFlags } from './server.js';

const DEFAULT_PORT = 4010;

export const mock = defineCommand({
  name: 'mock',
  summary: 'serve the contract with Prism (examples, or generated responses with --dynamic)',
  usage: '[options]',
  options: {
    ...serverFlags(DEFAULT_PORT),
    dynamic: { type: 'boolean', help: ['generate responses from the schemas instead of serving the examples'] },
    seed: { type: 'string', value: 'S', help: ['seed for --dynamic, so that a run can be repeated'] },
    errors: { type: 'boolean', help: ['answer with an error when a response would break the contract'] },
    spec: {
      type: 'string',
      value: 'FILE',
      help: ['serve another OpenAPI document (default: the one in this package)'],
    },
  },
  notes: [
    `Needs Prism (${packageSpec(PRISM)}), an optional peer of this package; without it the command`,
    'says so, with the npm command that installs it, and exits 2.',
  ],
  async run(values, context) {
    const address = listenAddress(values, DEFAULT_PORT);
    // Looked for first: a missing Prism is said with the command that installs it, exit 2.
    needPeers([PRISM]);
    // Prism itself stays on a free loopback port; only the request log listens where asked.
    const prism = await startMock({
      ...(values.spec === undefined ? {} : { spec: values.spec }),
      ...(values.seed === undefined ? {} : { seed: values.seed }),
      dynamic: values.dynamic ?? false,
      errors: values.errors ?? false,
    });
    // `Bearer test` is the mock's placeholder (Prism takes any token), shown as it is to be copied.
    return serveUntilStopped(
      'Mock',
      prism,
      address,
      context,
      (url) => [`  try: ${tryCurl('listPixKeys', url, 'test')}`],
      undefined,
      true,
    );
  },
});
