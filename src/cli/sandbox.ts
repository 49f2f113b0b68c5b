// `baas-pix-contract sandbox`: the stateful sandbox (baas-pix-contract/sandbox) over HTTP, behind the
// request log, for tools in any language. Prints the seeded (synthetic) tokens and accounts to use.
import type { Sandbox } from '../sandbox/index.js';
// The limits alone (no Faker, no server): checked before the sandbox's code is even loaded.
import { SANDBOX_LIMITS, totalProblem, type SizeOption } from '../sandbox/limits.js';
import { UsageError, defineCommand } from './command.js';
import { listenAddress, serveUntilStopped, serverDetails, serverOptions } from './server.js';

const DEFAULT_PORT = 4020;
const DEFAULT_SEED = 'baas-pix-contract';
const FLAGS: Record<SizeOption, string> = { clients: '--clients', accountsPerClient: '--accounts', keysPerAccount: '--keys' };
const DEFAULTS: Record<SizeOption, number> = { clients: 2, accountsPerClient: 2, keysPerAccount: 5 };
const n = (value: number): string => value.toLocaleString('en-US');

function count(option: SizeOption, raw: string | undefined): number {
  if (raw === undefined) return DEFAULTS[option];
  const max = SANDBOX_LIMITS[option];
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) throw new UsageError(`${FLAGS[option]} must be a whole number from 1 to ${max}, got "${raw}"`);
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
    `--clients N    API clients, one token each (default ${DEFAULTS.clients}, at most ${n(SANDBOX_LIMITS.clients)})`,
    `--accounts N   customer accounts per client (default ${DEFAULTS.accountsPerClient}, at most ${n(SANDBOX_LIMITS.accountsPerClient)})`,
    `--keys N       PIX keys per account (default ${DEFAULTS.keysPerAccount}, one of each type; at most ${n(SANDBOX_LIMITS.keysPerAccount)})`,
    `               in all at most ${n(SANDBOX_LIMITS.accounts)} accounts (clients × accounts) and ${n(SANDBOX_LIMITS.keys)} keys`,
    '               (clients × accounts × keys), about 40 MB per 100,000 keys',
    'Past the fifth key of an account, a few keys have another status (pending, inactivated, …) or a',
    'company (CNPJ) as holder; with the default seed, --keys 100 shows every one.',
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
      clients: count('clients', values.clients),
      accountsPerClient: count('accountsPerClient', values.accounts),
      keysPerAccount: count('keysPerAccount', values.keys),
    };
    const tooBig = totalProblem(options, (option) => FLAGS[option]);
    if (tooBig !== undefined) throw new UsageError(tooBig);
    // Loaded here, not at start: `--help` and the other commands need none of the sandbox's peers.
    const { createSandbox } = await import('../sandbox/index.js');
    const instance = createSandbox(options);
    // The sandbox itself stays on a free loopback port; only the request log listens where asked.
    const backend = await instance.listen({ port: 0 });
    return serveUntilStopped('Sandbox', backend, address, context, (url) => sandboxBanner(instance, url, seed));
  },
});
