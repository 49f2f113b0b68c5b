// The flags several commands share, each declared once with its help: the target and credentials
// (verify, update-many, export-keys), the safety switch, the report, the pace and the page size. A
// command spreads the ones it takes into its own `options`; the help shows them under one heading each.
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY, MAX_RATE, MIN_RATE } from '../batch/options.js';
import { ENV } from './connection/credentials.js';
import { MAX_LIMIT } from '../verify/options.js';
import type { Flag } from './command.js';
import { n } from '../words.js';

const TARGET = 'Target:';
const CREDENTIALS = 'Credentials (one kind is required; secrets from the environment keep them out of shell history):';
const PACE = 'Pace:';

export { MAX_LIMIT };

/** `--base-url` and the credentials: a token, or OAuth2 client credentials; a client certificate. */
export const CONNECTION_FLAGS = {
  'base-url': {
    type: 'string',
    value: 'URL',
    group: TARGET,
    help: ["the service root (required); a gateway's path prefix is kept"],
  },
  token: { type: 'string', value: 'TOKEN', group: CREDENTIALS, help: [`a bearer token you hold (or ${ENV.token})`] },
  'token-url': {
    type: 'string',
    value: 'URL',
    group: CREDENTIALS,
    help: [
      'OAuth2 client credentials: the token endpoint; with --client-id and',
      `the secret from ${ENV.clientSecret}`,
    ],
  },
  'client-id': { type: 'string', value: 'ID', group: CREDENTIALS, help: ['the client id, with --token-url'] },
  'client-secret': {
    type: 'string',
    value: 'SECRET',
    group: CREDENTIALS,
    help: [`the client secret when ${ENV.clientSecret} is not set (shell history`, 'keeps it; prefer the variable)'],
  },
  scope: {
    type: 'string',
    value: '"a b"',
    group: CREDENTIALS,
    help: ['scopes asked of the token URL (default: none asked)'],
  },
  'auth-method': {
    type: 'string',
    value: 'METHOD',
    group: CREDENTIALS,
    help: ['client_secret_basic or client_secret_post (default client_secret_basic)'],
  },
  cert: {
    type: 'string',
    value: 'FILE',
    group: CREDENTIALS,
    help: [
      'a client certificate (mTLS), with --key, for the API and the token URL;',
      `the key's passphrase from ${ENV.passphrase} (default: none)`,
    ],
  },
  key: {
    type: 'string',
    value: 'FILE',
    group: CREDENTIALS,
    help: ["the client certificate's private key, with --cert"],
  },
  pfx: {
    type: 'string',
    value: 'FILE',
    group: CREDENTIALS,
    help: ['a client certificate and key in one PKCS#12 file (instead of --cert, --key)'],
  },
  ca: {
    type: 'string',
    value: 'FILE',
    group: CREDENTIALS,
    help: ["a private authority to trust (default: the system's)"],
  },
} as const satisfies Record<string, Flag>;

export const SAFETY_FLAGS = {
  'allow-insecure-http': {
    type: 'boolean',
    group: 'Safety:',
    help: [
      'allow plain http to a host that is not loopback (--base-url,',
      '--token-url): the token and secret travel in clear; said on',
      'stderr (verify: also in its table and report). Without it such a URL',
      'is refused before anything is sent (default: refused).',
    ],
  },
} as const satisfies Record<string, Flag>;

export const REPORT_FLAGS = {
  report: {
    type: 'string',
    value: 'FILE',
    group: 'Output:',
    help: [
      'also write a JSON report to FILE: the settings, each outcome, the summary',
      '(default: only what stdout shows)',
    ],
  },
} as const satisfies Record<string, Flag>;

export const RATE_FLAGS = {
  rate: {
    type: 'string',
    value: 'N',
    group: PACE,
    help: [
      `requests per second at most, ${n(MIN_RATE)} to ${n(MAX_RATE)} (default: none;`,
      "the pace is found from the service's 429s, Retry-After and rate-limit headers)",
    ],
  },
} as const satisfies Record<string, Flag>;

export const CONCURRENCY_FLAGS = {
  concurrency: {
    type: 'string',
    value: 'N',
    group: PACE,
    help: [
      `requests in flight at most, 1 to ${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY});`,
      'lowered for a while after a 429 or 503',
    ],
  },
} as const satisfies Record<string, Flag>;

/** `--limit N`: the page size, as the API names it. */
export const limitFlag = (defaultLimit: number, group: string) =>
  ({
    type: 'string',
    value: 'N',
    group,
    help: [`keys asked for each page (the API's limit), 1 to ${MAX_LIMIT} (default ${defaultLimit})`],
  }) as const satisfies Flag;
