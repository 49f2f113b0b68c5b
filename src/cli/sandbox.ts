// `baas-pix-contract sandbox`: the stateful sandbox (baas-pix-contract/sandbox) over HTTP, behind the
// request log, for tools in any language. Prints the seeded (synthetic) tokens and accounts to use.
import type { Sandbox } from '../sandbox/index.js';
import { UsageError, defineCommand } from './command.js';
import { listenAddress, serveUntilStopped, serverDetails, serverOptions } from './server.js';

const DEFAULT_PORT = 4020;
const DEFAULT_SEED = 'baas-pix-contract';

function count(flag: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) throw new UsageError(`--${flag} must be a whole number from 1 to ${max}, got "${raw}"`);
  return Number(raw);
}

/** The banner: what to send, from the seeded data (synthetic tokens and CPFs, safe to print). */
export function sandboxBanner(sandbox: Sandbox, url: string, seed: string): string[] {
  const lines = [`Seed ${JSON.stringify(seed)}: the tokens, accounts and CPFs below are synthetic (same seed, same data).`];
  sandbox.clients.forEach((client, index) => {
    lines.push(`client ${index + 1}: Authorization: Bearer ${client.token}`);
    for (const account of client.accounts) lines.push(`  Account=${account.account}  DocumentNumber=${account.documentNumber}  account_id=${account.accountId}`);
  });
  const first = sandbox.clients[0]!;
  lines.push(`  try: curl -H 'Authorization: Bearer ${first.token}' -H 'User-Agent: demo/1' '${url}/v2/api/pix/keys/list-keys?limit=2'`);
  return lines;
}

export const sandbox = defineCommand({
  name: 'sandbox',
  summary: 'serve the stateful sandbox (seeded clients, accounts and keys; real pages; accurate errors)',
  usage: '[--port N] [--host H] [--seed S] [--clients N] [--accounts N] [--keys N]',
  details: [
    ...serverDetails(DEFAULT_PORT),
    `--seed S       same seed, same data, byte for byte (default "${DEFAULT_SEED}")`,
    '--clients N    API clients, one token each (default 2)',
    '--accounts N   customer accounts per client (default 2)',
    '--keys N       PIX keys per account (default 5, one of each type)',
    'Prints a token and the accounts of each client; logs one line per request (no token, no CPF).',
    'Needs @faker-js/faker@^10 and @hono/node-server@^2 installed next to this package (optional peers).',
  ],
  options: {
    ...serverOptions,
    seed: { type: 'string' },
    clients: { type: 'string' },
    accounts: { type: 'string' },
    keys: { type: 'string' },
  },
  async run(values, _positionals, context) {
    const address = listenAddress(values, DEFAULT_PORT);
    const seed = values.seed ?? DEFAULT_SEED;
    const options = {
      seed,
      clients: count('clients', values.clients, 2, 1_000),
      accountsPerClient: count('accounts', values.accounts, 2, 1_000),
      keysPerAccount: count('keys', values.keys, 5, 100_000),
    };
    // Loaded here, not at start: `--help` and the other commands need none of the sandbox's peers.
    const { createSandbox } = await import('../sandbox/index.js');
    const instance = createSandbox(options);
    // The sandbox itself stays on a free loopback port; only the request log listens where asked.
    const backend = await instance.listen({ port: 0 });
    return serveUntilStopped('Sandbox', backend, address, context, (url) => sandboxBanner(instance, url, seed));
  },
});
