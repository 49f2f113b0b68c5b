// `npm run docs:examples`: copies each example file into the README's and the guides' blocks that show
// it (`<!-- example: examples/<file> -->`). `--check` only lists the blocks that differ, and exits 1.
import { refreshExampleBlocks } from './lib/doc-examples.mjs';

const check = process.argv.includes('--check');
const stale = refreshExampleBlocks({ write: !check });
for (const { document, example } of stale) console.log(`${check ? 'differs' : 'updated'}: ${document} (${example})`);
if (check && stale.length > 0) {
  console.error('Run `npm run docs:examples` to copy the example files into these blocks.');
  process.exit(1);
}
