// `npm run sandbox`: the stateful sandbox on 127.0.0.1 for tools in any language. Prints the seeded
// (synthetic) tokens and accounts to use, logs each request without tokens and with CPFs masked,
// and stops on SIGINT, SIGTERM or SIGHUP.
import { parseArgs } from 'node:util';
import { createSandbox } from '../src/sandbox/index.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.PORT ?? '4020' },
    seed: { type: 'string', default: process.env.SANDBOX_SEED ?? 'baas-pix-contract' },
    clients: { type: 'string', default: '2' },
    accounts: { type: 'string', default: '2' },
    keys: { type: 'string', default: '5' },
    quiet: { type: 'boolean', default: false },
  },
});

const sandbox = createSandbox({
  seed: values.seed,
  clients: Number(values.clients),
  accountsPerClient: Number(values.accounts),
  keysPerAccount: Number(values.keys),
});
const running = await sandbox.listen({ port: Number(values.port), ...(values.quiet ? {} : { log: (line: string) => console.log(line) }) });

console.log(`Sandbox: ${running.url}  (seed ${JSON.stringify(values.seed)}; the tokens and CPFs below are synthetic)\n`);
sandbox.clients.forEach((client, index) => {
  console.log(`client ${index + 1}: Authorization: Bearer ${client.token}`);
  for (const account of client.accounts) console.log(`  Account=${account.account}  DocumentNumber=${account.documentNumber}  account_id=${account.accountId}`);
});
const first = sandbox.clients[0]!;
console.log(`\n  curl -H 'Authorization: Bearer ${first.token}' -H 'User-Agent: demo/1' '${running.url}/v2/api/pix/keys/list-keys?limit=2'\n\nCtrl-C stops the sandbox.`);

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    void running.stop().then(() => process.exit(0));
  });
}
