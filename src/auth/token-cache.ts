// The cache and single flight of a clientCredentials token source. One token is kept until
// `expires_in` minus a margin; concurrent callers on a cold or stale cache share one token request;
// a failed request is not cached.
import type { FetchLike } from '../fetch.js';
import type { TokenEvent } from '../logging/events.js';
import type { ResolvedClientCredentials } from './options.js';
import { requestToken, type CachedToken } from './request-token.js';
import type { BaasTokenError } from './token-error.js';

export interface TokenCache {
  get(): Promise<string>;
  invalidate(token?: string): void;
  /** Every access token issued that is still alive (the latest 64 at most), so none leaks through an error text. */
  readonly issued: string[];
}

export interface TokenCacheInit {
  settings: ResolvedClientCredentials;
  send: FetchLike;
  /** The client secret, its Basic encoding and the tokens issued: masked in every error. */
  secrets: () => string[];
  basic: string;
  /** Told of each token fetched, dropped or failed; an observer's failure is not the token's. */
  observers: ReadonlySet<(event: TokenEvent) => void>;
}

/** The most tokens of one source masked at once (a source refreshing every minute issues 64 in an hour). */
const MAX_ISSUED = 64;

export function tokenCache({ settings, send, secrets, basic, observers }: TokenCacheInit): TokenCache {
  const tell = (event: TokenEvent) => {
    for (const observer of observers) {
      try {
        observer(event);
      } catch {
        // An observer's failure is not the token's.
      }
    }
  };
  let cached: CachedToken | undefined;
  let inflight: Promise<CachedToken> | undefined;
  // Each token issued and when it dies: a token a program still holds (or a provider echoes) is
  // masked until then, however many were issued since, up to MAX_ISSUED.
  const issued: { value: string; diesAt: number }[] = [];
  const tokenUrl = settings.shownUrl;

  return {
    get issued() {
      const now = Date.now();
      return issued.filter((token) => token.diesAt > now).map((token) => token.value);
    },
    async get() {
      if (cached && Date.now() < cached.refreshAt) return cached.value;
      if (!inflight) {
        // Set before any await, so every caller arriving meanwhile joins this one request.
        const startedAt = Date.now();
        inflight = requestToken(settings, send, secrets, basic).then(
          (token) => {
            tell({
              type: 'token',
              action: 'fetched',
              tokenUrl,
              durationMs: Date.now() - startedAt,
              expiresInSeconds: token.expiresInSeconds,
            });
            issued.push({ value: token.value, diesAt: startedAt + token.expiresInSeconds * 1000 });
            if (issued.length > MAX_ISSUED) issued.shift();
            cached = token;
            inflight = undefined;
            return token;
          },
          (error: unknown) => {
            inflight = undefined;
            const e = error as BaasTokenError;
            tell({ type: 'token', action: 'failed', tokenUrl, error: e.error ?? e.failure, message: e.message });
            throw error;
          },
        );
      }
      return (await inflight).value;
    },
    invalidate(token) {
      if (cached && (token === undefined || cached.value === token)) {
        cached = undefined;
        tell({ type: 'token', action: 'invalidated', tokenUrl });
      }
    },
  };
}
