// The sandbox signs cursors with @noble/hashes (no node:crypto on the handler's path): a cursor is still
// exactly the one node:crypto's HMAC gave, so the cursors of a seed stay what they were. The byte
// helpers beside it agree with Buffer's base64url and compare equal bytes only.
import { createHmac } from 'node:crypto';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { base64url, equalBytes } from '../../src/sandbox/bytes.js';
import { Cursors } from '../../src/sandbox/cursor.js';

describe('cursors', () => {
  test.prop([fc.string({ maxLength: 120, unit: 'grapheme' }), fc.nat(999), fc.nat(250_000)], { seed: 23 })(
    "are the offset in base 36 and node:crypto's HMAC-SHA-256 of client:offset, base64url, 22 characters",
    (secret, client, offset) => {
      const cursors = new Cursors(secret);
      const signature = createHmac('sha256', secret).update(`${client}:${offset}`).digest('base64url').slice(0, 22);
      const cursor = cursors.encode(client, offset);
      expect(cursor).toBe(`${offset.toString(36)}.${signature}`);
      // Checked by the signature, not by the cache of issued cursors: a sandbox of its own decodes it.
      expect(new Cursors(secret).decode(client, cursor)).toBe(offset);
      expect(new Cursors(`${secret}x`).decode(client, cursor)).toBeUndefined();
      expect(new Cursors(secret).decode(client + 1, cursor)).toBeUndefined();
    },
  );
});

describe('bytes', () => {
  test.prop([fc.uint8Array({ maxLength: 100 })], { seed: 23 })('base64url is Buffer’s base64url', (bytes) => {
    expect(base64url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
  });

  it('equalBytes is true for equal bytes only', () => {
    expect(equalBytes(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(equalBytes(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
    expect(equalBytes(new Uint8Array([2, 2]), new Uint8Array([1, 2]))).toBe(false);
    expect(equalBytes(new Uint8Array([1, 2]), new Uint8Array([1, 2, 3]))).toBe(false);
  });
});
