// `baas-pix-contract export-keys`: its flags and help; the work itself (./batch/export-keys-run.ts)
// is loaded when the command runs.
import { MAX_PAGE_SIZE } from '../verify/options.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS, RATE_HELP, SAFETY_HELP } from './batch/options.js';
import { defineCommand, type Values } from './command.js';

export const EXPORT_KEYS_OPTIONS = {
  out: { type: 'string' },
  ...CONNECTION_OPTIONS,
  rate: { type: 'string' },
  'page-size': { type: 'string' },
  journal: { type: 'string' },
  report: { type: 'string' },
} as const;

export type ExportKeysValues = Values<typeof EXPORT_KEYS_OPTIONS>;

export const exportKeys = defineCommand({
  name: 'export-keys',
  summary: 'write every PIX key to a JSONL or CSV file, paced and resumable',
  usage: '--out FILE --base-url URL [credentials] [--rate N] [--page-size N] [--journal FILE] [--report FILE]',
  details: [
    'Output:',
    '  --out FILE                    where the keys go (required): a .csv name gives CSV with a header',
    '                                row (nested members dotted: beneficiary_entity.name); any other',
    '                                name JSONL, one key a line as the API gave it',
    ...CONNECTION_HELP,
    'Pace:',
    ...RATE_HELP.map((line) => `  ${line}`),
    `  --page-size N                 keys asked for each page, 1 to ${MAX_PAGE_SIZE} (default ${MAX_PAGE_SIZE})`,
    'Resume and output:',
    "  --journal FILE                after each page is written and synced, record the file's length and",
    '                                the next cursor; the same command with the same journal cuts the file',
    '                                back to the last page recorded and goes on from there, so each key is',
    '                                written exactly once (default: no journal; a rerun starts over)',
    "  --report FILE                 write a JSON report: the settings, each page's count, the summary",
    '                                (default: the summary on stdout only)',
    ...SAFETY_HELP,
    'Ctrl-C (or SIGTERM) stops after the page in flight is written and journaled.',
    'Exit status: 0 every key written, 1 the run failed (rerun with the journal to go on), 2 a usage',
    'error, 130 stopped by SIGINT, 143 by SIGTERM.',
  ],
  options: EXPORT_KEYS_OPTIONS,
  async run(values, _positionals, context) {
    const { runExportKeys } = await import('./batch/export-keys-run.js');
    return runExportKeys(values, { ...context, env: process.env, progress: process.stderr });
  },
});
