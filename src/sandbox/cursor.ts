// Opaque page cursors: the position in the client's key list, signed so that a tampered cursor, or
// one issued to another client or by a sandbox with other data, is refused instead of trusted.
import { createHmac } from 'node:crypto';

// Cursors issued lately, so the next page's request skips the HMAC (a few µs, a tenth of a cached page).
const ISSUED_SIZE = 1024;

export class Cursors {
  private readonly issued = new Map<string, number>();

  constructor(private readonly secret: string) {}

  private mac(clientIndex: number, offset: number): string {
    return createHmac('sha256', this.secret).update(`${clientIndex}:${offset}`).digest('base64url').slice(0, 22);
  }

  encode(clientIndex: number, offset: number): string {
    const cursor = `${offset.toString(36)}.${this.mac(clientIndex, offset)}`;
    if (this.issued.size >= ISSUED_SIZE) this.issued.delete(this.issued.keys().next().value!);
    this.issued.set(`${clientIndex}/${cursor}`, offset);
    return cursor;
  }

  /** The offset a cursor stands for, or undefined when it was not issued to this client by this sandbox. */
  decode(clientIndex: number, cursor: string): number | undefined {
    const known = this.issued.get(`${clientIndex}/${cursor}`);
    if (known !== undefined) return known;
    const dot = cursor.indexOf('.');
    if (dot <= 0 || !/^[0-9a-z]{1,10}$/.test(cursor.slice(0, dot))) return undefined;
    const offset = parseInt(cursor.slice(0, dot), 36);
    return this.mac(clientIndex, offset) === cursor.slice(dot + 1) ? offset : undefined;
  }
}
