// Cheap, seeded randomness for the per-key values: keys are derived on demand from (seed, position),
// so a list of 100,000 keys costs no memory until a page is served, and every page is the same on
// every run. Faker (seeded once) makes the per-customer data; re-seeding Faker per key costs ~80 µs.

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
    for (let i = 0; i < count; i += 1) out += String(this.below(10));
    return out;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)]!;
  }

  /** A lower-case version-4 UUID. */
  uuid(): string {
    const hex = (n: number, width: number) => n.toString(16).padStart(width, '0').slice(-width);
    const a = this.next();
    const b = this.next();
    const c = this.next();
    const d = this.next();
    return `${hex(a, 8)}-${hex(b >>> 16, 4)}-${hex(0x4000 | (b & 0x0fff), 4)}-${hex(0x8000 | (c & 0x3fff), 4)}-${hex(c >>> 16, 4)}${hex(d, 8)}`;
  }
}

/** Appends CPF check digits to nine digits. */
function withCpfCheckDigits(nine: string): string {
  const digits = [...nine].map(Number);
  for (const length of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < length; i += 1) sum += digits[i]! * (length + 1 - i);
    const remainder = sum % 11;
    digits.push(remainder < 2 ? 0 : 11 - remainder);
  }
  return digits.join('');
}

/** A CPF with valid check digits, never one repeated digit. */
export function cpf(random: Random): string {
  for (;;) {
    const nine = random.digits(9);
    if (!/^(\d)\1{8}$/.test(nine)) return withCpfCheckDigits(nine);
  }
}

/** A CNPJ (branch 0001) with valid check digits. */
export function cnpj(random: Random): string {
  const digits = [...`${random.digits(8)}0001`].map(Number);
  for (const weights of [
    [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
    [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
  ]) {
    const sum = weights.reduce((acc, weight, i) => acc + weight * digits[i]!, 0);
    const remainder = sum % 11;
    digits.push(remainder < 2 ? 0 : 11 - remainder);
  }
  return digits.join('');
}
