// The access tokens the token endpoint issued: which client each belongs to and when it expires, on
// the sandbox's own clock. Bounded per client (the oldest dropped first), so memory stays bounded
// however often a client asks; an expired token is kept until pushed out, so that it can be told
// apart from one never issued.
import { randomBytes } from 'node:crypto';

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
    private readonly now: () => number,
  ) {}

  /** A new token for the client; past the bound, its oldest token is forgotten. */
  issue(clientIndex: number): string {
    // Unguessable, unlike the seeded tokens: an issued token is the one credential here not printed anywhere.
    const token = `sbx_at_${randomBytes(20).toString('hex')}`;
    this.byToken.set(token, { clientIndex, expiresAt: this.now() + this.ttlMs });
    let list = this.perClient.get(clientIndex);
    if (list === undefined) {
      list = [];
      this.perClient.set(clientIndex, list);
    }
    list.push(token);
    while (list.length > this.livePerClient) this.byToken.delete(list.shift()!);
    return token;
  }

  /** The client of a live token; 'expired' for one whose time is up; undefined for one unknown. */
  lookup(token: string): TokenLookup {
    const found = this.byToken.get(token);
    if (found === undefined) return undefined;
    return this.now() < found.expiresAt ? { clientIndex: found.clientIndex } : 'expired';
  }

  /** How many tokens are kept, live or expired (for tests of the bound). */
  get size(): number {
    return this.byToken.size;
  }
}
