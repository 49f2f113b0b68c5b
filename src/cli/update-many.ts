// `baas-pix-contract update-many`: its flags and help; the work itself (./batch/update-many-run.ts)
// is loaded when the command runs, so the other commands never load it.
import { defineCommand, type Values } from './command.js';
import { CONCURRENCY_FLAGS, CONNECTION_FLAGS, RATE_FLAGS, REPORT_FLAGS, SAFETY_FLAGS } from './flags.js';

const INPUT = 'Input:';

export const UPDATE_MANY_OPTIONS = {
  input: {
    type: 'string',
    value: 'FILE',
    group: INPUT,
    help: [
      'the updates (required): JSONL, one {"account","documentNumber","body"}',
      'a line; CSV (a .csv name: any separator, "," or ";") or a workbook',
      '(.xlsx, needs the exceljs package) with a header: Account,',
      'DocumentNumber and body fields in dotted form (address.city), any',
      'case; TRUE/FALSE or VERDADEIRO/FALSO for isPoliticallyExposedPerson;',
      'an empty cell sends nothing',
    ],
  },
  encoding: {
    type: 'string',
    value: 'NAME',
    group: INPUT,
    help: [
      "the CSV file's character encoding: utf-8 (the default) or",
      'windows-1252 (also latin1), as Excel\'s "CSV (separado por vírgulas)"',
      'saves; a file that is not in it is refused whole, nothing sent',
    ],
  },
  'dry-run': {
    type: 'boolean',
    group: INPUT,
    help: [
      'check every line and send nothing, not even for a token: each bad',
      'line as "line N: field: rule"; exit 1 if any is bad (default: off)',
    ],
  },
  ...CONNECTION_FLAGS,
  ...CONCURRENCY_FLAGS,
  ...RATE_FLAGS,
  journal: {
    type: 'string',
    value: 'FILE',
    group: 'Output:',
    help: [
      "record each line's outcome (append-only, synced every 50 lines or",
      '200 ms); the same command with the same journal skips the lines',
      'done and tries the failed ones again (default: no journal)',
    ],
  },
  ...REPORT_FLAGS,
  ...SAFETY_FLAGS,
} as const;

export type UpdateManyValues = Values<typeof UPDATE_MANY_OPTIONS>;

export const updateMany = defineCommand({
  name: 'update-many',
  summary: 'update many customers from a JSONL or CSV file: validated first, paced, journaled, resumable',
  usage: '--input FILE --base-url URL [credentials] [options]',
  options: UPDATE_MANY_OPTIONS,
  notes: [
    'Every line is checked before anything is sent; bad lines are listed and skipped. Progress goes',
    'to stderr (a bar on a terminal, a line every 5 s elsewhere); after the summary, the first lines',
    'not done, each with its status or rule (--report lists them all). No CPF, account or token is shown.',
    'Ctrl-C (or SIGTERM) stops taking lines, lets the requests in flight finish and flushes the',
    'journal; a second Ctrl-C aborts them.',
    'Exit status: 0 every line done (now or in the journal), 1 a line failed or is invalid (a token',
    'endpoint failing or out of reach among them), 2 a usage error, credentials refused or a --token-url',
    'that is not a token endpoint (fix the command first), 130 stopped by SIGINT, 143 by SIGTERM.',
  ],
  async run(values, context) {
    const { runUpdateMany } = await import('./batch/update-many-run.js');
    return runUpdateMany(values, {
      ...context,
      env: context.env ?? process.env,
      progress: context.progress ?? process.stderr,
    });
  },
});
