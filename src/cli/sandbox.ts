// `baas-pix-contract sandbox`: the stateful sandbox (baas-pix-contract/sandbox) over HTTP, behind the
// request log, for tools in any language. Prints the seeded (synthetic) tokens and accounts to use.
import type { Sandbox } from '../sandbox/index.js';
import { SANDBOX_LIMITS, SANDBOX_TOKENS } from '../sandbox/limits.js';
import { defineCommand } from './command.js';
import {
  DEFAULT_FAULT_RETRY_AFTER,
  DEFAULT_SEED,
  DEFAULTS,
  FAULTS_GRAMMAR,
  MAX_RATE_LIMIT,
  n,
  type SandboxSettings,
  sandboxSettings,
} from './sandbox-flags.js';
import { listenAddress, serveUntilStopped, serverDetails, serverOptions } from './server.js';

const DEFAULT_PORT = 4020;
/** Accounts listed per client in the banner; past it, a line says how many more there are. */
export const BANNER_ACCOUNTS = 1_000;

export type BannerInfo = Pick<SandboxSettings, 'seed' | 'keysPerAccount' | 'tokenTtlSeconds'> &
  Partial<Pick<SandboxSettings, 'rateLimit' | 'faults'>>;

const plural = (count: number, one: string, many = `${one}s`) => `${n(count)} ${count === 1 ? one : many}`;

/** A share as a percentage, without the noise of binary fractions (0.07 → 7, not 7.000000000000001). */
const percent = (share: number): string => String(Number((share * 100).toPrecision(12)));

function limitsInForce(info: BannerInfo): string[] {
  const rate =
    info.rateLimit === undefined
      ? 'Rate limit: none (--rate-limit N sets one).'
      : `Rate limit: ${plural(info.rateLimit, 'request')} per second per client; past it 429 with Retry-After; RateLimit and RateLimit-Policy on its answers.`;
  const faults = info.faults ?? [];
  const faulty =
    faults.length === 0
      ? 'Faults: none (--faults sets some).'
      : `Faults: ${faults
          .map((fault) => {
            const retry =
              fault.status === 429 || fault.status === 503
                ? ` (Retry-After ${fault.retryAfterSeconds ?? DEFAULT_FAULT_RETRY_AFTER} s)`
                : '';
            return `${fault.status} on ${percent(fault.share ?? 1)} % of API answers${retry}`;
          })
          .join(', ')}.`;
  return [rate, faulty];
}

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
    ...limitsInForce(info),
  ];
  sandbox.clients.forEach((client, index) => {
    lines.push(`client ${index + 1}: Authorization: Bearer ${client.token}`);
    lines.push(`  client_id=${client.clientId}  client_secret=${client.clientSecret}`);
    for (const account of client.accounts.slice(0, BANNER_ACCOUNTS))
      lines.push(
        `  Account=${account.account}  DocumentNumber=${account.documentNumber}  account_id=${account.accountId}`,
      );
    const more = client.accounts.length - BANNER_ACCOUNTS;
    // The same seed gives the same accounts: createSandbox with it, in Node, lists them all.
    if (more > 0)
      lines.push(`  … and ${plural(more, 'more account')} (createSandbox with the same seed and sizes lists them all)`);
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
  usage:
    '[--port N] [--host H] [--seed S] [--clients N] [--accounts N] [--keys N] [--token-ttl SECONDS] [--rate-limit N] [--faults LIST]',
  details: [
    ...serverDetails(DEFAULT_PORT),
    `--seed S       same seed, same data, byte for byte (default "${DEFAULT_SEED}")`,
    `--clients N    API clients, one token each (default ${DEFAULTS.clients}, at most ${n(SANDBOX_LIMITS.clients)})`,
    `--accounts N   customer accounts per client (default ${DEFAULTS.accountsPerClient}, at most ${n(SANDBOX_LIMITS.accountsPerClient)})`,
    `--keys N       PIX keys per account (default ${DEFAULTS.keysPerAccount}, one of each type; 0 to ${n(SANDBOX_LIMITS.keysPerAccount)})`,
    `               in all at most ${n(SANDBOX_LIMITS.accounts)} accounts (clients × accounts) and ${n(SANDBOX_LIMITS.keys)} keys`,
    '               (clients × accounts × keys), at most about 350 MB; for batch work, --keys 0',
    '--token-ttl SECONDS',
    `               lifetime of the tokens ${SANDBOX_TOKENS.path} issues (default ${SANDBOX_TOKENS.defaultTtlSeconds}, at most ${n(SANDBOX_TOKENS.maxTtlSeconds)}); an`,
    '               expired one gets a 401 on the API; the static tokens never expire',
    `--rate-limit N requests per second per client (default none, at most ${n(MAX_RATE_LIMIT)}): N at once,`,
    '               then N a second; past it 429 with Retry-After; RateLimit fields on its answers',
    "--faults LIST  faults on a share of the API's answers (default none): a comma-separated list",
    `               of ${FAULTS_GRAMMAR}, SHARE above 0 and at most 1, drawn from`,
    `               the seed; retry-after (0 to 86,400, default ${DEFAULT_FAULT_RETRY_AFTER}) for a 429 or 503 only.`,
    '               E.g. --faults 503:0.05:retry-after=0,429:0.01',
    'Past the fifth key of an account, a few keys have another status (pending, inactivated, …) or a',
    'company (CNPJ) as holder; with the default seed, --keys 100 shows every one.',
    "Prints the counts, the token URL, the rate limit and faults, and each client's static token,",
    `client_id and client_secret and accounts (the first ${n(BANNER_ACCOUNTS)} of each); logs one line per request`,
    '(no token, no secret, no CPF).',
    'Needs @faker-js/faker@^10 and @hono/node-server@^2 installed next to this package (optional peers).',
  ],
  options: {
    ...serverOptions,
    seed: { type: 'string' },
    clients: { type: 'string' },
    accounts: { type: 'string' },
    keys: { type: 'string' },
    'token-ttl': { type: 'string' },
    'rate-limit': { type: 'string' },
    faults: { type: 'string' },
  },
  async run(values, _positionals, context) {
    const address = listenAddress(values, DEFAULT_PORT);
    const settings = sandboxSettings(values);
    const { rateLimit, faults, ...sizes } = settings;
    // Loaded here, not at start: `--help` and the other commands need none of the sandbox's peers.
    const { createSandbox } = await import('../sandbox/index.js');
    const instance = createSandbox({
      ...sizes,
      ...(rateLimit === undefined ? {} : { rateLimit: { requests: rateLimit, windowMs: 1000 } }),
      ...(faults.length === 0 ? {} : { faults }),
    });
    // The sandbox itself stays on a free loopback port; only the request log listens where asked.
    const backend = await instance.listen({ port: 0 });
    return serveUntilStopped('Sandbox', backend, address, context, (url) => sandboxBanner(instance, url, settings));
  },
});
