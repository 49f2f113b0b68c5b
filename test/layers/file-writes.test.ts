// One module writes files: src/files.ts (DEVELOPERS.md, "one place for each guard"). Every other module
// of src/ goes through it. This reads each source file's imports from node:fs and node:fs/promises and
// fails when another module takes a function that creates, changes or removes a file or folder.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { sourceFiles } from '../support/source-scan.js';

const HOME = 'src/files.ts';
// What node:fs offers that writes; reading (readFile, stat, createReadStream, …) is anyone's.
// Each also as its Sync form; the descriptor-level ones (write, ftruncate, fdatasync, …) write through a
// number `open` gave, as a FileHandle writes through its object (file-handles.check.test.ts).
const WRITES =
  /^(?:(?:writeFile|appendFile|open|mkdir|mkdtemp|rm|rmdir|unlink|rename|copyFile|cp|link|symlink|truncate|chmod|chown|lchmod|lchown|utimes|lutimes|write|writev|ftruncate|fsync|fdatasync|fchmod|fchown|futimes)(?:Sync)?|createWriteStream|promises)$/;
const FS_IMPORT =
  /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'node:fs(?:\/promises)?'|import\s+\*\s+as\s+\w+\s+from\s+'node:fs(?:\/promises)?'/g;

/** The writing functions a source text imports from node:fs, `*` for a namespace import. */
function writingImports(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(FS_IMPORT)) {
    if (match[1] === undefined) {
      found.push('*');
      continue;
    }
    for (const part of match[1].split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]!;
      if (name && !part.trim().startsWith('type ') && WRITES.test(name)) found.push(name);
    }
  }
  return found;
}

describe('writing files', () => {
  it(`happens in ${HOME} only: no other module of src/ imports a writing function of node:fs`, async () => {
    const files = await sourceFiles('src');
    expect(files).toContain(HOME);
    const copies: string[] = [];
    for (const file of files) {
      if (file === HOME) continue;
      const names = writingImports(await readFile(join(repoRoot, file), 'utf8'));
      if (names.length > 0) copies.push(`${file}: ${names.join(', ')}`);
    }
    expect(copies, `write through ${HOME} instead`).toEqual([]);
    // The file layer itself does write.
    expect(writingImports(await readFile(join(repoRoot, HOME), 'utf8'))).toContain('open');
  });

  it('finds a writing import however it is written, and lets reading and types through', () => {
    expect(writingImports("import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';")).toEqual([
      'mkdtemp',
      'rm',
      'writeFile',
    ]);
    expect(writingImports("import { writeFileSync as save } from 'node:fs';")).toEqual(['writeFileSync']);
    expect(writingImports("import * as fs from 'node:fs';")).toEqual(['*']);
    expect(writingImports("import { write, ftruncateSync, fdatasync } from 'node:fs';")).toEqual([
      'write',
      'ftruncateSync',
      'fdatasync',
    ]);
    expect(writingImports("import { readFile, stat, type FileHandle } from 'node:fs/promises';")).toEqual([]);
    expect(writingImports("import type { FileHandle } from 'node:fs/promises';")).toEqual([]);
  });
});
