// `baas-pix-contract verify`: its flags and help, declared like every other command's; the run itself
// (src/verify/cli.ts) is loaded when asked for, so that the other commands never load the drift checks.
import { defaultMaxRequests, DEFAULTS } from '../verify/options.js';
import { defineCommand, type Values } from './command.js';
import { CONNECTION_FLAGS, limitFlag, REPORT_FLAGS, SAFETY_FLAGS } from './flags.js';

const WALK = 'Walk:';
const BUDGETS = 'Budgets (each printed with what the run used):';
const WRITES = 'Writes (none by default: the run is read-only):';
const MIB = DEFAULTS.maxResponseBytes / (1024 * 1024);

export const VERIFY_FLAGS = {
  ...CONNECTION_FLAGS,
  pages: {
    type: 'string',
    value: 'N',
    group: WALK,
    help: [`list-keys pages to walk at most (default ${DEFAULTS.pages})`],
  },
  limit: limitFlag(DEFAULTS.limit, WALK),
  'max-requests': {
    type: 'string',
    value: 'N',
    group: BUDGETS,
    help: [
      'requests sent in all, retries and redirects included',
      `(default 2 × (pages + 3): ${defaultMaxRequests(DEFAULTS.pages)} with the default --pages)`,
    ],
  },
  'time-budget-ms': {
    type: 'string',
    value: 'MS',
    group: BUDGETS,
    help: [`wall-clock time for the whole run (default ${DEFAULTS.timeBudgetMs})`],
  },
  'timeout-ms': {
    type: 'string',
    value: 'MS',
    group: BUDGETS,
    help: [`time for one request, never past the time budget (default ${DEFAULTS.timeoutMs})`],
  },
  'max-response-bytes': {
    type: 'string',
    value: 'N',
    group: BUDGETS,
    help: [
      `read at most N bytes of any answer (default ${DEFAULTS.maxResponseBytes}, ${MIB} MiB);`,
      'a larger answer is an ERROR row naming the limit (a bound of',
      "verify's own, not of the contract)",
    ],
  },
  'allow-writes': {
    type: 'boolean',
    group: WRITES,
    help: ['send one PUT of the update (never retried); needs the three below'],
  },
  account: { type: 'string', value: 'ACCOUNT', group: WRITES, help: ['the account to update'] },
  'document-number': { type: 'string', value: 'CPF', group: WRITES, help: ["its holder's CPF (masked in all output)"] },
  body: { type: 'string', value: 'FILE', group: WRITES, help: ['a JSON file holding the update body'] },
  ...REPORT_FLAGS,
  ...SAFETY_FLAGS,
} as const;

export type VerifyFlagValues = Values<typeof VERIFY_FLAGS>;

export const verify = defineCommand({
  name: 'verify',
  summary: 'check a live service (or a sandbox) against the contract; exit 0 only when nothing drifted',
  usage: '--base-url URL [credentials] [options]',
  options: VERIFY_FLAGS,
  notes: [
    'Checks a live service against the contract. Read-only unless --allow-writes is given.',
    'Redirects are followed only for reads, to the same origin, at most 5 times (as the client does);',
    'one to another origin, of the write, or past 5 is a DRIFT row naming Location, sent nowhere.',
    'Secrets, tokens and CPFs are masked in the table and the report.',
    'Exit status: 0 nothing drifted, 1 drift found, 2 could not check: a usage error (no credentials',
    'among them), credentials refused, a --token-url that is not a token endpoint (fix the command',
    'first), or a check that could not run (a token endpoint failing or out of reach among them).',
  ],
  async run(values, context) {
    const { runVerifyCommand } = await import('../verify/cli.js');
    return runVerifyCommand(values, context);
  },
});
