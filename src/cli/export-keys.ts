// `baas-pix-contract export-keys`: its flags and help; the work itself (./batch/export-keys-run.ts)
// is loaded when the command runs.
import { defineCommand, type Values } from './command.js';
import { CONNECTION_FLAGS, limitFlag, MAX_LIMIT, RATE_FLAGS, REPORT_FLAGS, SAFETY_FLAGS } from './flags.js';

const OUTPUT = 'Output:';

export const EXPORT_KEYS_OPTIONS = {
  out: {
    type: 'string',
    value: 'FILE',
    group: OUTPUT,
    help: [
      'where the keys go (required): .jsonl (or .ndjson) one key a line as',
      'the API gave it; .csv a header row and a row a key (nested members',
      'dotted: beneficiary_entity.name); .xlsx a workbook with text cells',
      '(needs the exceljs package; written whole, no --journal)',
    ],
  },
  'csv-dialect': {
    type: 'string',
    value: 'NAME',
    group: OUTPUT,
    help: [
      'the CSV written: rfc4180 (the default: UTF-8, ","), or pt-BR (UTF-8',
      'with a byte order mark, ";", every field quoted), which Excel and',
      'LibreOffice in Portuguese open in columns with accents intact',
    ],
  },
  journal: {
    type: 'string',
    value: 'FILE',
    group: OUTPUT,
    help: [
      "after each page is written and synced, record the file's length and",
      'the next cursor; the same command with the same journal cuts the file',
      'back to the last page recorded and goes on from there, so each key is',
      'written exactly once (default: no journal; a rerun starts over)',
    ],
  },
  ...REPORT_FLAGS,
  ...CONNECTION_FLAGS,
  ...RATE_FLAGS,
  limit: limitFlag(MAX_LIMIT, 'Pace:'),
  ...SAFETY_FLAGS,
} as const;

export type ExportKeysValues = Values<typeof EXPORT_KEYS_OPTIONS>;

export const exportKeys = defineCommand({
  name: 'export-keys',
  summary: 'write every PIX key to a JSONL, CSV or .xlsx file, paced and resumable',
  usage: '--out FILE --base-url URL [credentials] [options]',
  options: EXPORT_KEYS_OPTIONS,
  notes: [
    'Ctrl-C (or SIGTERM) stops after the page in flight is written and journaled.',
    'Exit status: 0 every key written, 1 the run failed (a token endpoint failing or out of reach among',
    'them; rerun with the journal to go on), 2 a usage error, credentials refused or a --token-url that',
    'is not a token endpoint (fix the command first), 130 stopped by SIGINT, 143 by SIGTERM.',
  ],
  async run(values, context) {
    const { runExportKeys } = await import('./batch/export-keys-run.js');
    return runExportKeys(values, {
      ...context,
      env: context.env ?? process.env,
      progress: context.progress ?? process.stderr,
    });
  },
});
