// The access tokens the token endpoint issued: which client each belongs to and when it expires, on
// performance.now (a clock that never goes back). Bounded per client (the oldest dropped first), so
// memory stays bounded however often a client asks; an expired token is kept until pushed out, so
// that it can be told apart from one never issued.

interface Issued {
  clientIndex: number;
  expiresAt: number;
}

export type TokenLookup = { clientIndex: number } | 'expired' | undefined;

export class IssuedTokens {
  private readonly byToken = new Map<string, Issued>();
  /** Per client, its tokens oldest first. */
  private readonly perClient = new Map<number, string[]>();

  constructor(
    private readonly ttlMs: number,
    private readonly livePerClient: number,
  ) {}

  /** A new token for the client; past the bound, its oldest token is forgotten. */
  issue(clientIndex: number): string {
    // Unguessable, unlike the seeded tokens: an issued token is the one credential here not printed anywhere.
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(20));
    const token = `sbx_at_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
    this.byToken.set(token, { clientIndex, expiresAt: performance.now() + this.ttlMs });
    const list = this.perClient.get(clientIndex) ?? [];
    this.perClient.set(clientIndex, list);
    list.push(token);
    while (list.length > this.livePerClient) this.byToken.delete(list.shift()!);
    return token;
  }

  /** The client of a live token; 'expired' for one whose time is up; undefined for one unknown. */
  lookup(token: string): TokenLookup {
    const found = this.byToken.get(token);
    if (found === undefined) return undefined;
    return performance.now() < found.expiresAt ? { clientIndex: found.clientIndex } : 'expired';
  }

  /** How many tokens are kept, live or expired (for tests of the bound). */
  get size(): number {
    return this.byToken.size;
  }
}
