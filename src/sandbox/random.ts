import { cnpjCheckDigits } from '../cnpj.js';

// Cheap, seeded randomness for the per-key values: each key is derived from (seed, position) alone,
// so every page is the same on every run, and 100,000 keys are derived in about 0.1 s of CPU.
// Faker (seeded once) makes the per-customer data; re-seeding Faker per key costs ~80 µs.

/** 32-bit hash of a string seed (cyrb53's mixing, folded to 32 bits). */
export function hashSeed(seed: string | number): number {
  const text = typeof seed === 'number' ? `n:${seed}` : `s:${seed}`;
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 ^ h2) >>> 0;
}

const DIGIT = '0123456789';
const HEX_BYTE = Array.from({ length: 256 }, (_, n) => n.toString(16).padStart(2, '0'));

/** A small generator (sfc32) seeded from several integers. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(...parts: number[]) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = 1;
    for (const part of parts) {
      this.a ^= part;
      this.b = Math.imul(this.b ^ part, 0x85ebca6b);
      this.c = Math.imul(this.c + part, 0xc2b2ae35);
    }
    for (let i = 0; i < 12; i += 1) this.next();
  }

  /** A uint32. */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** An integer in [0, n). */
  below(n: number): number {
    return this.next() % n;
  }

  digits(count: number): string {
    let out = '';
    for (let i = 0; i < count; i += 1) out += DIGIT[this.next() % 10]!;
    return out;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)]!;
  }

  /** A lower-case version-4 UUID. */
  uuid(): string {
    // Byte by byte from a table: every key has one or two, and a sandbox derives all its keys at creation.
    const a = this.next();
    const b = this.next();
    const c = this.next();
    const d = this.next();
    const version = 0x4000 | (b & 0x0fff);
    const variant = 0x8000 | (c & 0x3fff);
    return (
      HEX_BYTE[a >>> 24]! +
      HEX_BYTE[(a >>> 16) & 0xff]! +
      HEX_BYTE[(a >>> 8) & 0xff]! +
      HEX_BYTE[a & 0xff]! +
      '-' +
      HEX_BYTE[b >>> 24]! +
      HEX_BYTE[(b >>> 16) & 0xff]! +
      '-' +
      HEX_BYTE[version >>> 8]! +
      HEX_BYTE[version & 0xff]! +
      '-' +
      HEX_BYTE[variant >>> 8]! +
      HEX_BYTE[variant & 0xff]! +
      '-' +
      HEX_BYTE[c >>> 24]! +
      HEX_BYTE[(c >>> 16) & 0xff]! +
      HEX_BYTE[d >>> 24]! +
      HEX_BYTE[(d >>> 16) & 0xff]! +
      HEX_BYTE[(d >>> 8) & 0xff]! +
      HEX_BYTE[d & 0xff]!
    );
  }
}

/** A CPF with valid check digits, never one repeated digit. */
export function cpf(random: Random): string {
  let digits: number[];
  do {
    digits = [];
    for (let i = 0; i < 9; i += 1) digits.push(random.next() % 10);
  } while (new Set(digits).size === 1);
  digits.push(checkDigit(digits, CPF_WEIGHTS_1));
  digits.push(checkDigit(digits, CPF_WEIGHTS_2));
  return digitString(digits);
}

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * A CNPJ (branch 0001) with valid check digits: numeric, as issued before July 2026, or with an
 * alphanumeric root (letters A-Z and digits), as the Receita Federal issues since (IN RFB nº 2.229/2024).
 */
export function cnpj(random: Random, alphanumeric = false): string {
  let root = '';
  for (let i = 0; i < 8; i += 1) root += alphanumeric ? ALPHANUMERIC[random.next() % 36]! : DIGIT[random.next() % 10]!;
  const first12 = `${root}0001`;
  return first12 + cnpjCheckDigits(first12);
}

// Modulo-11 check digits of a CPF (a CNPJ's are src/validation/cnpj.ts's): the weights of the digits before the one computed.
const CPF_WEIGHTS_1 = [10, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const CPF_WEIGHTS_2 = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2] as const;

function checkDigit(digits: readonly number[], weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i += 1) sum += digits[i]! * weights[i]!;
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

function digitString(digits: readonly number[]): string {
  let out = '';
  for (const digit of digits) out += DIGIT[digit]!;
  return out;
}
