// A page of the key list (PixKeyList) written straight to UTF-8 bytes: each key's own fields are
// ASCII text, and what its account's keys share is copied from bytes encoded once per account.
// Building one long string and encoding it cost about as much as deriving the keys (`npm run bench`).
import { accountKeys, keyHead, type AccountKeys, type SeededAccount, type World } from './data.js';

const COMMA = 0x2c;
const CLOSE = ']}';

/**
 * The JSON text of `{"cursor":{"next":…},"data":[keys offset..end-1]}` as bytes, exactly what
 * `JSON.stringify` writes for the same page. `next` is the cursor's JSON (a quoted string or `null`).
 */
export function pageBytes(world: World, accounts: readonly SeededAccount[], offset: number, end: number, next: string): Uint8Array<ArrayBuffer> {
  const keysPerAccount = world.keysPerAccount;
  const heads: string[] = [];
  const shares: AccountKeys[] = [];
  const open = `{"cursor":{"next":${next}},"data":[`;
  let size = open.length + CLOSE.length;
  let position = offset;
  while (position < end) {
    const accountIndex = Math.floor(position / keysPerAccount);
    const shared = accountKeys(world, accounts[accountIndex]!);
    const accountEnd = Math.min(end, (accountIndex + 1) * keysPerAccount);
    for (let index = position - accountIndex * keysPerAccount; position < accountEnd; position += 1, index += 1) {
      const head = keyHead(shared, index);
      heads.push(head);
      shares.push(shared);
      size += head.length + shared.sharedBytes.byteLength;
    }
  }
  size += Math.max(0, heads.length - 1);
  // Its own ArrayBuffer (not a slice of Node's pool), so a cached page keeps only its own bytes.
  const bytes = Buffer.allocUnsafeSlow(size);
  let at = bytes.write(open, 0, 'latin1');
  for (let i = 0; i < heads.length; i += 1) {
    if (i > 0) bytes[at++] = COMMA;
    at += bytes.write(heads[i]!, at, 'latin1');
    const shared = shares[i]!.sharedBytes;
    bytes.set(shared, at);
    at += shared.byteLength;
  }
  at += bytes.write(CLOSE, at, 'latin1');
  if (at !== size) throw new Error(`pageBytes: wrote ${at} bytes of ${size}`);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, size) as Uint8Array<ArrayBuffer>;
}
