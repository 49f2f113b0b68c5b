// A file system that is nearly full writes part of a write and says so only by the count: the next
// write gives ENOSPC. export-keys trusted one FileHandle.write to be the whole page, so a page cut short
// was journaled as written (the journal recording 62 KiB of a 56 KiB file, a key torn in half), and every
// rerun was refused as "not the output the journal records". Here the disk fills at the third page.
import { open, readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { COMMANDS } from '../../../src/cli/commands.js';
import { main } from '../../../src/cli/main.js';
import { OpenFile } from '../../../src/files.js';
import { capture } from '../in-process.js';
import { type CountingSandbox, countingSandbox, keyIdsOf, tempDir } from './harness.js';

let sandbox: CountingSandbox;
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  sandbox = await countingSandbox({ clients: 1, accountsPerClient: 20, keysPerAccount: 2 });
  dir = await tempDir();
});
afterAll(async () => {
  await sandbox?.stop();
  await dir?.remove();
});
afterEach(() => vi.restoreAllMocks());

/** FileHandle's prototype, whose write every handle of the run uses. */
async function handlePrototype(): Promise<{ write: (...args: unknown[]) => Promise<{ bytesWritten: number }> }> {
  const handle = await open(dir.file('probe'), 'w');
  const prototype = Object.getPrototypeOf(handle) as never;
  await handle.close();
  return prototype;
}

/** From the `from`-th write of `path`'s handle on, the disk is full: half of that write lands, then ENOSPC. */
async function diskFullAt(from: number) {
  const prototype = await handlePrototype();
  const write = prototype.write;
  let writes = 0;
  let full = false;
  vi.spyOn(prototype, 'write').mockImplementation(async function (this: unknown, ...args: unknown[]) {
    const [data, offset, length] = args as [Uint8Array | string, number | undefined, number | undefined];
    writes += 1;
    if (full) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    if (writes < from) return write.apply(this, args);
    full = true;
    const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data);
    const start = typeof offset === 'number' ? offset : 0;
    const total = typeof length === 'number' ? length : bytes.byteLength - start;
    return write.call(this, bytes, start, Math.max(1, Math.floor(total / 2)), args[3] ?? null);
  });
}

const exportKeys = async (out: string, journal: string) => {
  const io = capture();
  const code = await main(
    ['export-keys', '--out', out, '--journal', journal, '--limit', '10', '--base-url', sandbox.url],
    COMMANDS,
    { ...io, env: { BAAS_TOKEN: sandbox.sandbox.clients[0]!.token } },
  );
  return { code, err: io.stderr.join('\n') };
};

describe('export-keys on a disk that fills mid-page', () => {
  it('stops with exit 2 without journaling the torn page, and the rerun completes the file, each key once', async () => {
    const [out, journal] = [dir.file('keys.jsonl'), dir.file('keys.journal')];
    // The output's writes are the ones cut: the journal's own are positional and looped already.
    const prototype = await handlePrototype();
    const write = prototype.write;
    let pageWrites = 0;
    vi.spyOn(prototype, 'write').mockImplementation(async function (this: unknown, ...args: unknown[]) {
      const [data] = args;
      // The journal writes at a position; the pages go where the file ends.
      const isPage = (args[3] ?? null) === null;
      if (isPage) pageWrites += 1;
      if (isPage && pageWrites === 3) {
        const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data as Uint8Array);
        const start = typeof args[1] === 'number' ? args[1] : 0;
        const total = typeof args[2] === 'number' ? args[2] : bytes.byteLength - start;
        return write.call(this, bytes, start, Math.max(1, Math.floor(total / 2)), null);
      }
      if (isPage && pageWrites > 3)
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      return write.apply(this, args);
    });
    const failed = await exportKeys(out, journal);
    vi.restoreAllMocks();
    expect(failed.code, failed.err).toBe(2);
    expect(failed.err).toMatch(/no space left/);
    const resumed = await exportKeys(out, journal);
    expect(resumed.code, resumed.err).toBe(0);
    const ids = (await readFile(out, 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (JSON.parse(line) as { id: string }).id)
      .sort();
    expect(ids).toEqual(keyIdsOf(sandbox));
  });
});

describe('OpenFile writes all', () => {
  it('writes what a short write left, and says a full disk as its error', async () => {
    await diskFullAt(2);
    const path = dir.file('all');
    const handle = await open(path, 'w');
    try {
      await new OpenFile(handle).write('a'.repeat(10));
      await expect(new OpenFile(handle).write('b'.repeat(1000))).rejects.toMatchObject({ code: 'ENOSPC' });
    } finally {
      vi.restoreAllMocks();
      await handle.close();
    }
    expect((await readFile(path, 'utf8')).startsWith(`${'a'.repeat(10)}b`)).toBe(true);
  });

  it('a write that writes nothing is an I/O error, never a loop', async () => {
    const prototype = await handlePrototype();
    vi.spyOn(prototype, 'write').mockResolvedValue({ bytesWritten: 0 });
    const handle = await open(dir.file('none'), 'w');
    try {
      await expect(new OpenFile(handle).writeAt(Buffer.from('x'), 0)).rejects.toMatchObject({ code: 'EIO' });
    } finally {
      vi.restoreAllMocks();
      await handle.close();
    }
  });
});
