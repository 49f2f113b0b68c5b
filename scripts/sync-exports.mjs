#!/usr/bin/env node
// `npm run sync:exports`: writes package.json's exports, typesVersions, main/module/types and bin
// from scripts/lib/entries.mjs. `--check` only reports whether package.json is in step.
import { readFile, writeFile } from 'node:fs/promises';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { join } from 'node:path';
import { manifestFields } from './lib/entries.mjs';
import { repoRoot } from './lib/paths.mjs';

const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });
const path = join(repoRoot, 'package.json');
const manifest = JSON.parse(await readFile(path, 'utf8'));
const fields = manifestFields();
const stale = Object.keys(fields).filter((key) => !isDeepStrictEqual(manifest[key], fields[key]));
if (values.check) {
  if (stale.length) {
    console.error(
      `package.json is out of step with scripts/lib/entries.mjs (${stale.join(', ')}): run \`npm run sync:exports\`.`,
    );
    process.exit(1);
  }
  console.log('package.json matches scripts/lib/entries.mjs');
} else {
  // Keep the key order a reader expects: the derived fields where they were, new ones before "files".
  const out = {};
  for (const [key, value] of Object.entries(manifest)) {
    if (key === 'files') for (const [k, v] of Object.entries(fields)) if (!(k in manifest)) out[k] = v;
    out[key] = key in fields ? fields[key] : value;
  }
  await writeFile(path, `${JSON.stringify(out, null, 2)}\n`);
  console.log(stale.length ? `package.json: wrote ${stale.join(', ')}` : 'package.json already in step');
}
