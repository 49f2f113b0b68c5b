// `baas-pix-contract verify`: verify's own command line (src/verify/cli.ts, which parses its own
// options), loaded when asked for so that the other commands never load the drift checks.
import { USAGE } from '../verify/options.js';
import { defineCommand } from './command.js';

// verify's usage text: its option lines (the first, and the indented ones after it), then prose.
const lines = USAGE.replace(/^Usage: verify /, '').split('\n');
const optionLines = lines.filter((line, index) => index === 0 || /^\s+\[/.test(line));

export const verify = defineCommand({
  name: 'verify',
  summary: 'check a live service (or a sandbox) against the contract; exit 0 only when nothing drifted',
  usage: optionLines.map((line) => line.trim()).join(' '),
  details: lines.filter((line) => !optionLines.includes(line)),
  options: {},
  ownArguments: true,
  async run(_values, argv, context) {
    const { main } = await import('../verify/cli.js');
    return main(argv, { out: context.out, err: context.err, env: process.env });
  },
});
