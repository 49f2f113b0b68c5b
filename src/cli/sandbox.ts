// `baas-pix-contract sandbox`: the stateful sandbox (baas-pix-contract/sandbox) over HTTP, behind the
// request log, for tools in any language. Prints the seeded (synthetic) tokens and accounts to use.
import type { Sandbox } from '../sandbox/index.js';
import { SANDBOX_TOKENS } from '../sandbox/limits.js';
import { defineCommand } from './command.js';
import { tryCurl } from './curl.js';
import {
  DEFAULT_FAULT_RETRY_AFTER,
  LARGEST_RSS,
  n,
  SANDBOX_FLAGS,
  type SandboxSettings,
  sandboxSettings,
} from './sandbox-flags.js';
import { FAKER, HONO_SERVER, needPeers, packageSpec } from './peers.js';
import { listenAddress, serveUntilStopped, serverFlags } from './server.js';
import { SANDBOX_DOCS_PATH, sandboxDocsPage } from './sandbox-docs.js';
import { plural } from '../words.js';

const DEFAULT_PORT = 4020;
/** Accounts of client 1 the banner shows; `--list` prints every client and every account. */
export const BANNER_ACCOUNTS = 3;
export { LARGEST_RSS };

export type BannerInfo = Pick<SandboxSettings, 'seed' | 'keysPerAccount' | 'tokenTtlSeconds'> &
  Partial<Pick<SandboxSettings, 'rateLimit' | 'faults'>> & {
    /** Every client and every account (`--list`); otherwise client 1 and a few of its accounts. */
    list?: boolean;
  };

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

type SandboxClient = Sandbox['clients'][number];

/** One client: its token and credentials, then (for client 1) the two curl lines, then its accounts. */
function clientLines(client: SandboxClient, index: number, shown: number, more: string[]): string[] {
  const lines = [
    `client ${index + 1}: Authorization: Bearer ${client.token}`,
    `  client_id=${client.clientId}  client_secret=${client.clientSecret}`,
    ...more,
  ];
  for (const account of client.accounts.slice(0, shown))
    lines.push(
      `  Account=${account.account}  DocumentNumber=${account.documentNumber}  account_id=${account.accountId}`,
    );
  const hidden = client.accounts.length - shown;
  if (hidden > 0) lines.push(`  … and ${plural(hidden, 'more account')} (--list prints every one)`);
  return lines;
}

/**
 * The banner: what to send, from the seeded data, on one screen: the counts, the token URL, the limits,
 * client 1's token, credentials and ready curl lines, and a few of its accounts (`--list`: every client
 * and account). The tokens, client secrets and CPFs are synthetic, the sandbox's own test credentials,
 * printed on purpose for a developer on this machine; the request log after it never shows them.
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
  const first = sandbox.clients[0]!;
  const ready = [
    `  token: curl -u '${first.clientId}:${first.clientSecret}' -d grant_type=client_credentials '${tokenUrl}'`,
    `  try: ${tryCurl('listPixKeys', url, first.token, { limit: 2 })}`,
  ];
  const shown = info.list ? perClient : BANNER_ACCOUNTS;
  lines.push(...clientLines(first, 0, shown, ready));
  if (info.list)
    for (const [index, client] of sandbox.clients.entries()) {
      if (index > 0) lines.push(...clientLines(client, index, shown, []));
    }
  else if (clients > 1)
    lines.push(
      `${clients === 2 ? 'client 2' : `clients 2 to ${n(clients)}`}: --list prints ${clients === 2 ? 'its' : 'their'} token, client_id, client_secret and accounts`,
    );
  return lines;
}

export const sandbox = defineCommand({
  name: 'sandbox',
  summary: 'serve the stateful sandbox (seeded clients, accounts and keys; real pages; accurate errors)',
  usage: '[options]',
  options: {
    ...serverFlags(DEFAULT_PORT),
    ...SANDBOX_FLAGS,
    list: {
      type: 'boolean',
      help: [
        "print every client's token, client_id, client_secret and every account",
        `(default: client 1 and its first ${BANNER_ACCOUNTS} accounts)`,
      ],
    },
  },
  notes: [
    'Past the fifth key of an account, a few keys have another status (pending, inactivated, …) or a',
    'company (CNPJ) as holder; with the default seed, --keys 100 shows every one.',
    "Prints the counts, the token URL, the rate limit and faults, client 1's static token, client_id,",
    'client_secret, two ready curl lines and its first accounts, then "Sandbox listening on URL" once it',
    'takes requests; logs one line per request after it (no token, no secret, no CPF).',
    `Serves the docs page at ${SANDBOX_DOCS_PATH} with a try-it panel per operation (rendered on its first request;`,
    'needs @redocly/cli@^2 installed next to this package).',
    `Needs ${packageSpec(FAKER)} and ${packageSpec(HONO_SERVER)}, optional peers of this package; without`,
    'them the command says so, with the npm command that installs them, and exits 2.',
  ],
  async run(values, context) {
    const address = listenAddress(values, DEFAULT_PORT);
    const settings = sandboxSettings(values);
    const { rateLimit, faults, ...sizes } = settings;
    // Looked for first (a missing one said with the command that installs both, exit 2), and loaded
    // here, not at start: `--help` and the other commands need none of the sandbox's peers.
    needPeers([FAKER, HONO_SERVER]);
    const { createSandbox } = await import('../sandbox/index.js');
    const instance = createSandbox({
      ...sizes,
      ...(rateLimit === undefined ? {} : { rateLimit: { requests: rateLimit, windowMs: 1000 } }),
      ...(faults.length === 0 ? {} : { faults }),
    });
    // The sandbox itself stays on a free loopback port; only the request log listens where asked.
    const backend = await instance.listen({ port: 0 });
    return serveUntilStopped(
      'Sandbox',
      backend,
      address,
      context,
      (url) => [
        ...sandboxBanner(instance, url, { ...settings, list: values.list === true }),
        `Docs with a try-it panel (client 1's token filled in; needs @redocly/cli): ${url}${SANDBOX_DOCS_PATH}`,
      ],
      { [SANDBOX_DOCS_PATH]: sandboxDocsPage(instance) },
      // The banner shows the sandbox's own synthetic tokens, secrets and CPFs: what it is for.
      true,
    );
  },
});
