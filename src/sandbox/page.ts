// Pages of the key list (PixKeyList) as UTF-8 bytes. Every key's own fields (id, key, key_type) are
// derived from the seed once, when the sandbox is created, and kept as ASCII bytes, about 100 bytes
// a key; what an account's keys share is encoded once per account. A page, served before or not, is
// then copied from those bytes: deriving keys while serving cost most of a page (`npm run bench`).
import { accountKeys, keyHead, type SeededAccount, type World } from './data.js';

const COMMA = 0x2c;

/** One account's keys, ready to copy into pages. */
export interface CompiledAccount {
  /** The start of every key's JSON, up to its shared part, one after another (ASCII). */
  heads: Buffer;
  /** Where key i's head ends in `heads` (it starts where key i-1's ends). */
  ends: Uint32Array;
  /** The rest of every key's JSON: the fields its account's keys share (UTF-8). */
  shared: Buffer;
}

export function compileAccount(world: World, account: SeededAccount): CompiledAccount {
  const keys = accountKeys(world, account);
  const count = world.keysPerAccount;
  const ends = new Uint32Array(count);
  // The longest head: its fixed text (73 characters) and the longest key (a UUID, or an e-mail with
  // the account's local part, an index of up to 10 digits and the longest domain).
  const longest = 73 + Math.max(36, keys.emailLocal.length + 10 + 13);
  const scratch = Buffer.allocUnsafe(count * longest);
  let at = 0;
  // Written as they come: one long string of 10,000 heads cost more to flatten than to derive.
  for (let index = 0; index < count; index += 1) {
    at += scratch.write(keyHead(keys, index), at, 'latin1');
    ends[index] = at;
  }
  // Exactly its size, in an ArrayBuffer of its own. Key fields are ASCII (see `keyJson`): latin1 is exact.
  const heads = Buffer.allocUnsafeSlow(at);
  scratch.copy(heads, 0, 0, at);
  return { heads, ends, shared: Buffer.from(keys.sharedBytes) };
}

/**
 * The JSON text of `{"cursor":{"next":…},"data":[keys offset..end-1]}` as bytes, exactly what
 * `JSON.stringify` writes for the same page. `next` is the cursor's JSON (a quoted string or `null`).
 */
export function pageBytes(accounts: readonly CompiledAccount[], keysPerAccount: number, offset: number, end: number, next: string): Uint8Array<ArrayBuffer> {
  const open = `{"cursor":{"next":${next}},"data":[`;
  let size = open.length + 2 + Math.max(0, end - offset - 1);
  for (let position = offset; position < end; ) {
    const accountIndex = Math.floor(position / keysPerAccount);
    const account = accounts[accountIndex]!;
    const first = position - accountIndex * keysPerAccount;
    const last = Math.min(end, (accountIndex + 1) * keysPerAccount) - accountIndex * keysPerAccount;
    size += account.ends[last - 1]! - (first === 0 ? 0 : account.ends[first - 1]!) + (last - first) * account.shared.byteLength;
    position += last - first;
  }
  // Its own ArrayBuffer, so a cached page keeps only its own bytes.
  const bytes = Buffer.allocUnsafeSlow(size);
  let at = bytes.write(open, 0, 'latin1');
  for (let position = offset; position < end; ) {
    const accountIndex = Math.floor(position / keysPerAccount);
    const { heads, ends, shared } = accounts[accountIndex]!;
    const accountEnd = Math.min(end, (accountIndex + 1) * keysPerAccount);
    for (let index = position - accountIndex * keysPerAccount; position < accountEnd; position += 1, index += 1) {
      if (position > offset) bytes[at++] = COMMA;
      const start = index === 0 ? 0 : ends[index - 1]!;
      bytes.set(heads.subarray(start, ends[index]!), at);
      at += ends[index]! - start;
      bytes.set(shared, at);
      at += shared.byteLength;
    }
  }
  at += bytes.write(']}', at, 'latin1');
  if (at !== size) throw new Error(`pageBytes: wrote ${at} bytes of ${size}`);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, size) as Uint8Array<ArrayBuffer>;
}
