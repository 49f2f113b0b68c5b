// Opaque page cursors: the position in the client's key list, signed so that a tampered cursor, or
// one issued to another client or by a sandbox with other data, is refused instead of trusted.
// SHA-256 and HMAC from @noble/hashes: audited, synchronous (a cursor is signed while a page is built)
// and without node:crypto, which a Worker may lack. The build bundles them (noExternal in
// scripts/lib/build-code.mjs), so the package gains no dependency and its CommonJS build gets them as
// CommonJS (@noble/hashes 2 is ESM only).
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base64url } from './bytes.js';

const encoder = new TextEncoder();

export class Cursors {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = encoder.encode(secret);
  }

  private mac(clientIndex: number, offset: number): string {
    return base64url(hmac(sha256, this.key, encoder.encode(`${clientIndex}:${offset}`))).slice(0, 22);
  }

  encode(clientIndex: number, offset: number): string {
    return `${offset.toString(36)}.${this.mac(clientIndex, offset)}`;
  }

  /** The offset a cursor stands for, or undefined when it was not issued to this client by this sandbox. */
  decode(clientIndex: number, cursor: string): number | undefined {
    // The offset in base 36, a dot, the signature. Without a dot, `text` is all but the last character
    // and the signature compared is the whole cursor, at most 11 characters: never equal to a signature's 22.
    const dot = cursor.indexOf('.');
    const text = cursor.slice(0, dot);
    if (!/^[0-9a-z]{1,10}$/.test(text)) return undefined;
    const offset = parseInt(text, 36);
    return this.mac(clientIndex, offset) === cursor.slice(dot + 1) ? offset : undefined;
  }
}
