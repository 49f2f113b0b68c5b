// Pages of each client's key list as bytes, and the cursors between them. Keys never change, so every
// key is compiled once, at creation (page.ts), and a page is one copy per account it spans. Bytes
// rather than text: a Response scans a string body three times (USVString check, length, encoding)
// and copies a Uint8Array once.
import { Cursors } from './cursor.js';
import type { World } from './data.js';
import { type CompiledKeys, compileKeys, pageBytes } from './page.js';

const NO_KEYS: CompiledKeys = { json: new Uint8Array(0), ends: new Uint32Array(0) };

export class KeyPages {
  private readonly cursors: Cursors;
  private readonly compiled: (CompiledKeys | undefined)[];
  private readonly totalKeys: number;

  constructor(world: World, keysPerAccount: number, cursorSecret: string) {
    this.cursors = new Cursors(cursorSecret);
    this.totalKeys = (world.accounts[0]?.length ?? 0) * keysPerAccount;
    // Without keys there is nothing to compile: a batch sandbox of many accounts keeps no key bytes.
    this.compiled = keysPerAccount === 0 ? [] : world.accounts.map((accounts) => compileKeys(world, accounts));
  }

  /**
   * The offset a cursor stands for, or undefined when it was not issued to this client by this sandbox:
   * a cursor is only ever issued short of the end, so one at or past it (forged with the sandbox's
   * public seed) is refused like any other, a 400, never a page built past the keys.
   */
  offsetOf(clientIndex: number, cursor: string): number | undefined {
    const offset = this.cursors.decode(clientIndex, cursor);
    return offset !== undefined && offset > 0 && offset < this.totalKeys ? offset : undefined;
  }

  /** The page of `limit` keys from `offset` as JSON bytes (PixKeyList); the same bytes every time. */
  page(clientIndex: number, offset: number, limit: number): Uint8Array<ArrayBuffer> {
    const end = Math.min(offset + limit, this.totalKeys);
    const next = end < this.totalKeys ? `"${this.cursors.encode(clientIndex, end)}"` : 'null';
    return pageBytes(this.compiled[clientIndex] ?? NO_KEYS, offset, end, next);
  }
}
