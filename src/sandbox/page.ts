// Pages of the key list (PixKeyList) as UTF-8 bytes. Every key is derived from the seed once, when
// the sandbox is created, and kept as its JSON text in one buffer per account (about 370 bytes a key).
// A page, served before or not, is then one copy per account it spans: deriving keys while serving,
// then copying them key by key, cost most of an uncached page (`npm run bench`).
import { accountKeys, keyHead, LONGEST_STATUS_JSON, type SeededAccount, type World } from './data.js';

const COMMA = 0x2c;

/** One account's keys, ready to copy into pages. */
export interface CompiledAccount {
  /** Every key's JSON followed by a comma, one after another (UTF-8). */
  json: Buffer;
  /** Where key i's JSON and its comma end in `json` (key i starts where key i-1's comma ends). */
  ends: Uint32Array;
}

export function compileAccount(world: World, account: SeededAccount): CompiledAccount {
  const keys = accountKeys(world, account);
  const shared = keys.sharedBytes;
  const count = world.keysPerAccount;
  const ends = new Uint32Array(count);
  // The longest head: its fixed text (73 characters), the longest status and the longest key (a UUID,
  // or an e-mail with the account's local part, an index of up to 10 digits and the longest domain);
  // then the longest shared part (the customer's or a company's).
  const longest =
    73 +
    LONGEST_STATUS_JSON +
    Math.max(36, keys.emailLocal.length + 10 + 13) +
    Math.max(...shared.map((bytes) => bytes.byteLength)) +
    1;
  const scratch = Buffer.allocUnsafe(count * longest);
  let at = 0;
  // Written as they come: one long string of 10,000 keys cost more to flatten than to derive.
  // Key fields are ASCII (see `keyJson`): latin1 is exact for them; the shared part is UTF-8 already.
  for (let index = 0; index < count; index += 1) {
    const { head, holder } = keyHead(keys, index);
    at += scratch.write(head, at, 'latin1');
    const tail = shared[holder]!;
    scratch.set(tail, at);
    at += tail.byteLength;
    scratch[at++] = COMMA;
    ends[index] = at;
  }
  // Exactly its size, in an ArrayBuffer of its own.
  const json = Buffer.allocUnsafeSlow(at);
  scratch.copy(json, 0, 0, at);
  return { json, ends };
}

/**
 * The JSON text of `{"cursor":{"next":…},"data":[keys offset..end-1]}` as bytes, exactly what
 * `JSON.stringify` writes for the same page. `next` is the cursor's JSON (a quoted string or `null`).
 * One copy per account the page spans.
 */
export function pageBytes(
  accounts: readonly CompiledAccount[],
  keysPerAccount: number,
  offset: number,
  end: number,
  next: string,
): Uint8Array<ArrayBuffer> {
  const open = `{"cursor":{"next":${next}},"data":[`;
  const ranges: { json: Buffer; from: number; to: number }[] = [];
  let size = open.length + 2;
  for (let position = offset; position < end; ) {
    const accountIndex = Math.floor(position / keysPerAccount);
    const { json, ends } = accounts[accountIndex]!;
    const first = position - accountIndex * keysPerAccount;
    const last = Math.min(end, (accountIndex + 1) * keysPerAccount) - accountIndex * keysPerAccount;
    // Its keys with the commas between them: every key's comma but the last one's.
    const range = { json, from: first === 0 ? 0 : ends[first - 1]!, to: ends[last - 1]! - 1 };
    ranges.push(range);
    size += range.to - range.from;
    position += last - first;
  }
  size += Math.max(0, ranges.length - 1);
  // Its own ArrayBuffer, so a cached page keeps only its own bytes.
  const bytes = Buffer.allocUnsafeSlow(size);
  let at = bytes.write(open, 0, 'latin1');
  ranges.forEach(({ json, from, to }, i) => {
    if (i > 0) bytes[at++] = COMMA;
    at += json.copy(bytes, at, from, to);
  });
  bytes.write(']}', at, 'latin1');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, size) as Uint8Array<ArrayBuffer>;
}
