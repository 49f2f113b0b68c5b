// Pages of the key list (PixKeyList) as UTF-8 bytes, in plain Uint8Arrays (no Buffer: a Worker may
// have none). Every key of a client is derived from the seed
// once, when the sandbox is created, and kept as its JSON text in one buffer per client (about 370
// bytes a key, and 4 bytes for where it ends), so a page, served before or not, is one copy: deriving
// keys while serving, then copying them key by key, cost most of an uncached page (`npm run bench`).
// Nothing else is kept per account, so a sandbox of many accounts with few keys stays small.
import { keyHead, type SeededAccount, sharedKeyParts, type World } from './data.js';

const COMMA = 0x2c;

/** Writes ASCII text at `at` (every character here is ASCII, see `keyJson`); returns the bytes written. */
function writeAscii(bytes: Uint8Array, text: string, at: number): number {
  for (let i = 0; i < text.length; i += 1) bytes[at + i] = text.charCodeAt(i);
  return text.length;
}

/** One client's keys, ready to copy into pages. */
export interface CompiledKeys {
  /** Every key's JSON followed by a comma, one after another (UTF-8), in the order of the key list. */
  json: Uint8Array;
  /** Where key i's JSON and its comma end in `json` (key i starts where key i-1's comma ends). */
  ends: Uint32Array;
}

/**
 * The keys of a client's accounts, in two passes: the first measures, the second writes into a buffer
 * of exactly that size (deriving a key twice costs less than the memory of a buffer grown by guesses).
 */
export function compileKeys(world: World, accounts: readonly SeededAccount[]): CompiledKeys {
  const count = world.keysPerAccount;
  const ends = new Uint32Array(accounts.length * count);
  let size = 0;
  for (const account of accounts) {
    const shared = sharedKeyParts(world, account);
    // Key fields are ASCII (see `keyJson` in data.ts): a head's length is its size in bytes.
    for (let index = 0; index < count; index += 1) {
      const { head, holder } = keyHead(shared, index);
      size += head.length + shared.sharedBytes[holder]!.byteLength + 1;
    }
  }
  // Exactly its size, in an ArrayBuffer of its own.
  const json = new Uint8Array(size);
  let at = 0;
  let position = 0;
  for (const account of accounts) {
    const shared = sharedKeyParts(world, account);
    for (let index = 0; index < count; index += 1) {
      const { head, holder } = keyHead(shared, index);
      at += writeAscii(json, head, at);
      const tail = shared.sharedBytes[holder]!;
      json.set(tail, at);
      at += tail.byteLength;
      json[at++] = COMMA;
      ends[position++] = at;
    }
  }
  return { json, ends };
}

/**
 * The JSON text of `{"cursor":{"next":…},"data":[keys offset..end-1]}` as bytes, exactly what
 * `JSON.stringify` writes for the same page. `next` is the cursor's JSON (a quoted string or `null`).
 */
export function pageBytes(keys: CompiledKeys, offset: number, end: number, next: string): Uint8Array<ArrayBuffer> {
  const open = `{"cursor":{"next":${next}},"data":[`;
  // Its keys with the commas between them: every key's comma but the last one's.
  const from = offset === 0 ? 0 : keys.ends[offset - 1]!;
  const to = end > offset ? keys.ends[end - 1]! - 1 : from;
  const size = open.length + (to - from) + 2;
  // Its own ArrayBuffer, so a cached page keeps only its own bytes.
  const bytes = new Uint8Array(size);
  let at = writeAscii(bytes, open, 0);
  bytes.set(keys.json.subarray(from, to), at);
  at += to - from;
  writeAscii(bytes, ']}', at);
  return bytes;
}
