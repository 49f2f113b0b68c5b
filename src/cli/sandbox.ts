// `baas-pix-contract sandbox`: the stateful sandbox (baas-pix-contract/sandbox) over HTTP, behind the
// request log, for tools in any language. Prints the seeded (synthetic) tokens and accounts to use.
import type { Sandbox } from '../sandbox/index.js';
// The limits alone (no Faker, no server): checked before the sandbox's code is even loaded.
import { SANDBOX_LIMITS, SANDBOX_TOKENS, totalProblem, ttlProblem, type SizeOption } from '../sandbox/limits.js';
import { UsageError, defineCommand } from './command.js';
import { listenAddress, serveUntilStopped, serverDetails, serverOptions } from './server.js';

const DEFAULT_PORT = 4020;
const DEFAULT_SEED = 'baas-pix-contract';
const FLAGS: Record<SizeOption, string> = {
  clients: '--clients',
  accountsPerClient: '--accounts',
  keysPerAccount: '--keys',
};
const DEFAULTS: Record<SizeOption, number> = { clients: 2, accountsPerClient: 2, keysPerAccount: 5 };
const n = (value: number): string => value.toLocaleString('en-US');

function count(option: SizeOption, raw: string | undefined): number {
  if (raw === undefined) return DEFAULTS[option];
  const max = SANDBOX_LIMITS[option];
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max)
    throw new UsageError(`${FLAGS[option]} must be a whole number from 1 to ${max}, got "${raw}"`);
  return Number(raw);
}

function tokenTtl(raw: string | undefined): number {
  if (raw === undefined) return SANDBOX_TOKENS.defaultTtlSeconds;
  if (!/^\d+$/.test(raw) || ttlProblem(Number(raw), '--token-ttl') !== undefined) {
    throw new UsageError(
      `--token-ttl must be a whole number of seconds from 1 to ${n(SANDBOX_TOKENS.maxTtlSeconds)}, got "${raw}"`,
    );
  }
  return Number(raw);
}

export interface BannerInfo {
  seed: string;
  keysPerAccount: number;
  tokenTtlSeconds: number;
}

const plural = (count: number, one: string, many = `${one}s`) => `${n(count)} ${count === 1 ? one : many}`;

/**
 * The banner: what to send, from the seeded data. The tokens, client secrets and CPFs are synthetic,
 * the sandbox's own test credentials, printed on purpose for a developer on this machine; the request
 * log below it never shows them.
 */
export function sandboxBanner(sandbox: Sandbox, url: string, info: BannerInfo): string[] {
  const clients = sandbox.clients.length;
  const perClient = sandbox.clients[0]!.accounts.length;
  const accounts = clients * perClient;
  const tokenUrl = `${url}${SANDBOX_TOKENS.path}`;
  const lines = [
    `Seed ${JSON.stringify(info.seed)}: the tokens, client secrets, accounts and CPFs below are synthetic (same seed, same data).`,
    `Seeded ${plural(clients, 'client')}, ${plural(accounts, 'customer account')} (${n(perClient)} per client), ${plural(accounts * info.keysPerAccount, 'PIX key')} (${n(info.keysPerAccount)} per account).`,
    `Token URL (OAuth2 client credentials, client_secret_basic or client_secret_post; tokens live ${n(info.tokenTtlSeconds)} s): ${tokenUrl}`,
  ];
  sandbox.clients.forEach((client, index) => {
    lines.push(`client ${index + 1}: Authorization: Bearer ${client.token}`);
    lines.push(`  client_id=${client.clientId}  client_secret=${client.clientSecret}`);
    for (const account of client.accounts)
      lines.push(
        `  Account=${account.account}  DocumentNumber=${account.documentNumber}  account_id=${account.accountId}`,
      );
  });
  const first = sandbox.clients[0]!;
  lines.push(
    `  token: curl -u '${first.clientId}:${first.clientSecret}' -d grant_type=client_credentials '${tokenUrl}'`,
  );
  lines.push(
    `  try: curl -H 'Authorization: Bearer ${first.token}' -H 'User-Agent: demo/1' '${url}/v2/api/pix/keys/list-keys?limit=2'`,
  );
  return lines;
}

export const sandbox = defineCommand({
  name: 'sandbox',
  summary: 'serve the stateful sandbox (seeded clients, accounts and keys; real pages; accurate errors)',
  usage: '[--port N] [--host H] [--seed S] [--clients N] [--accounts N] [--keys N] [--token-ttl SECONDS]',
  details: [
    ...serverDetails(DEFAULT_PORT),
    `--seed S       same seed, same data, byte for byte (default "${DEFAULT_SEED}")`,
    `--clients N    API clients, one token each (default ${DEFAULTS.clients}, at most ${n(SANDBOX_LIMITS.clients)})`,
    `--accounts N   customer accounts per client (default ${DEFAULTS.accountsPerClient}, at most ${n(SANDBOX_LIMITS.accountsPerClient)})`,
    `--keys N       PIX keys per account (default ${DEFAULTS.keysPerAccount}, one of each type; at most ${n(SANDBOX_LIMITS.keysPerAccount)})`,
    `               in all at most ${n(SANDBOX_LIMITS.accounts)} accounts (clients × accounts) and ${n(SANDBOX_LIMITS.keys)} keys`,
    '               (clients × accounts × keys), about 40 MB per 100,000 keys',
    '--token-ttl SECONDS',
    `               lifetime of the tokens ${SANDBOX_TOKENS.path} issues (default ${SANDBOX_TOKENS.defaultTtlSeconds}, at most ${n(SANDBOX_TOKENS.maxTtlSeconds)}); an`,
    '               expired one gets a 401 on the API; the static tokens never expire',
    'Past the fifth key of an account, a few keys have another status (pending, inactivated, …) or a',
    'company (CNPJ) as holder; with the default seed, --keys 100 shows every one.',
    "Prints the counts, the token URL, and each client's static token, client_id and client_secret and",
    'accounts; logs one line per request (no token, no secret, no CPF).',
    'Needs @faker-js/faker@^10 and @hono/node-server@^2 installed next to this package (optional peers).',
  ],
  options: {
    ...serverOptions,
    seed: { type: 'string' },
    clients: { type: 'string' },
    accounts: { type: 'string' },
    keys: { type: 'string' },
    'token-ttl': { type: 'string' },
  },
  async run(values, _positionals, context) {
    const address = listenAddress(values, DEFAULT_PORT);
    const seed = values.seed ?? DEFAULT_SEED;
    const options = {
      seed,
      clients: count('clients', values.clients),
      accountsPerClient: count('accountsPerClient', values.accounts),
      keysPerAccount: count('keysPerAccount', values.keys),
      tokenTtlSeconds: tokenTtl(values['token-ttl']),
    };
    const tooBig = totalProblem(options, (option) => FLAGS[option]);
    if (tooBig !== undefined) throw new UsageError(tooBig);
    // Loaded here, not at start: `--help` and the other commands need none of the sandbox's peers.
    const { createSandbox } = await import('../sandbox/index.js');
    const instance = createSandbox(options);
    // The sandbox itself stays on a free loopback port; only the request log listens where asked.
    const backend = await instance.listen({ port: 0 });
    return serveUntilStopped('Sandbox', backend, address, context, (url) => sandboxBanner(instance, url, options));
  },
});
