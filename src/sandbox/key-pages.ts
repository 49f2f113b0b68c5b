// Pages of each client's key list as bytes, and the cursors between them. Keys never change, so a
// page's body never does: every key is compiled once, at creation (page.ts), and recent pages are
// kept encoded (bounded, least recently used first out), since tests walk the same pages again and
// again. Bytes rather than text: a Response scans a string body three times (USVString check,
// length, encoding) and copies a Uint8Array once.
import { Cursors } from './cursor.js';
import type { World } from './data.js';
import { type CompiledKeys, compileKeys, pageBytes } from './page.js';

const PAGE_CACHE_SIZE = 32;
const NO_KEYS: CompiledKeys = { json: new Uint8Array(0), ends: new Uint32Array(0) };

export class KeyPages {
  private readonly cursors: Cursors;
  private readonly compiled: (CompiledKeys | undefined)[];
  private readonly totalKeys: number;
  private readonly cache = new Map<string, Uint8Array<ArrayBuffer>>();

  constructor(world: World, keysPerAccount: number, cursorSecret: string) {
    this.cursors = new Cursors(cursorSecret);
    this.totalKeys = (world.accounts[0]?.length ?? 0) * keysPerAccount;
    // Without keys there is nothing to compile: a batch sandbox of many accounts keeps no key bytes.
    this.compiled = keysPerAccount === 0 ? [] : world.accounts.map((accounts) => compileKeys(world, accounts));
  }

  /** The offset a cursor stands for, or undefined when it was not issued to this client by this sandbox. */
  offsetOf(clientIndex: number, cursor: string): number | undefined {
    return this.cursors.decode(clientIndex, cursor);
  }

  /** The page of `limit` keys from `offset` as JSON bytes (PixKeyList); the same bytes every time. */
  page(clientIndex: number, offset: number, limit: number): Uint8Array<ArrayBuffer> {
    const cacheKey = `${clientIndex}:${offset}:${limit}`;
    let body = this.cache.get(cacheKey);
    // The cache only spares work: every entry holds the page's exact bytes. Its order (a hit moves to
    // the end) and its bound change how often a page is built again, never what it holds.
    // Stryker disable next-line BlockStatement: see above.
    if (body !== undefined) {
      // Stryker disable next-line CallExpression: see above.
      this.cache.delete(cacheKey);
    } else {
      body = this.build(clientIndex, offset, limit);
      // Stryker disable next-line ConditionalExpression,EqualityOperator,CallExpression: see above.
      if (this.cache.size >= PAGE_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    }
    // Stryker disable next-line CallExpression: see above.
    this.cache.set(cacheKey, body);
    return body;
  }

  private build(clientIndex: number, offset: number, limit: number): Uint8Array<ArrayBuffer> {
    const end = Math.min(offset + limit, this.totalKeys);
    const next = end < this.totalKeys ? `"${this.cursors.encode(clientIndex, end)}"` : 'null';
    return pageBytes(this.compiled[clientIndex] ?? NO_KEYS, offset, end, next);
  }
}
