// `baas-pix-contract update-many`: its flags and help; the work itself (./batch/update-many-run.ts)
// is loaded when the command runs, so the other commands never load it.
import { defineCommand, type Values } from './command.js';
import {
  CONCURRENCY_HELP,
  CONNECTION_HELP,
  CONNECTION_OPTIONS,
  PACE_OPTIONS,
  RATE_HELP,
  SAFETY_HELP,
} from './batch/options.js';

export const UPDATE_MANY_OPTIONS = {
  input: { type: 'string' },
  ...CONNECTION_OPTIONS,
  ...PACE_OPTIONS,
  report: { type: 'string' },
  'dry-run': { type: 'boolean' },
} as const;

export type UpdateManyValues = Values<typeof UPDATE_MANY_OPTIONS>;

export const updateMany = defineCommand({
  name: 'update-many',
  summary: 'update many customers from a JSONL or CSV file: validated first, paced, journaled, resumable',
  usage:
    '--input FILE --base-url URL [credentials] [--concurrency N] [--rate N] [--journal FILE] [--report FILE] [--dry-run]',
  details: [
    'Input:',
    '  --input FILE                  the updates (required): JSONL, one {"account","documentNumber","body"}',
    '                                a line; or CSV (a .csv name) with a header: Account, DocumentNumber',
    '                                and body fields in dotted form (address.city), true/false for',
    '                                isPoliticallyExposedPerson; an empty cell sends nothing',
    '  --dry-run                     check every line and send nothing, not even for a token: each bad',
    '                                line as "line N: field: rule"; exit 1 if any is bad (default: off)',
    ...CONNECTION_HELP.map((line) => line),
    'Pace:',
    ...[...CONCURRENCY_HELP, ...RATE_HELP].map((line) => `  ${line}`),
    'Resume and output:',
    "  --journal FILE                record each line's outcome (append-only, synced every 50 lines or",
    '                                200 ms); the same command with the same journal skips the lines',
    '                                done and tries the failed ones again (default: no journal)',
    "  --report FILE                 write a JSON report: the settings, each line's outcome, the summary",
    '                                (default: the summary on stdout only)',
    ...SAFETY_HELP,
    'Every line is checked before anything is sent; bad lines are listed and skipped. Progress goes',
    'to stderr (a bar on a terminal, a line every 5 s elsewhere). No CPF, account or token is shown.',
    'Ctrl-C (or SIGTERM) stops taking lines, lets the requests in flight finish and flushes the',
    'journal; a second Ctrl-C aborts them.',
    'Exit status: 0 every line done (now or in the journal), 1 a line failed or is invalid, 2 a usage',
    'error or credentials refused, 130 stopped by SIGINT, 143 by SIGTERM.',
  ],
  options: UPDATE_MANY_OPTIONS,
  async run(values, _positionals, context) {
    const { runUpdateMany } = await import('./batch/update-many-run.js');
    return runUpdateMany(values, { ...context, env: process.env, progress: process.stderr });
  },
});
