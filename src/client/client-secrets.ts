// The secrets of one client, and where the code that shows a client's work (the command line's lines,
// reports and journals) finds them: the one `Secrets` (src/redact.ts) the client made, never a list
// of its own. The command line builds each line through `clientSecrets(client)`; verify, which sends
// through the transport without a client, holds its run's secrets through `heldSecrets` as a client does.
import type { BaasClient } from './baas-client.js';
import { Secrets } from '../redact.js';
import type { TokenSource } from './token.js';

// Tokens the source gave, so errors can mask them even if a server echoes one back long after: a
// rotating source's older tokens may still be alive. A source that knows its tokens' lives
// (clientCredentials) also tells them through `secrets()`, read at each use.
export const TOKENS_REMEMBERED = 64;

/** One holder of secrets for one token source, and how it learns each token the source gives. */
export interface SecretsHolder {
  /** The token source's own secrets (read at each use) and the tokens it gave, the latest TOKENS_REMEMBERED kept. */
  readonly secrets: Secrets;
  /** Learns a token the source gave (a fixed token is learnt at once). */
  remember(token: string): void;
}

/**
 * The secrets of whatever sends with `token`: the source's own (clientCredentials: the client secret,
 * the client id, their Basic value and every token it issued that is still alive), asked at each use,
 * and the tokens it was given.
 */
export function heldSecrets(token: TokenSource | undefined): SecretsHolder {
  const source = typeof token === 'function' ? token : undefined;
  const given: string[] = [];
  const secrets = Secrets.of(() => {
    const own = source?.secrets?.();
    return own === undefined || own.length === 0 ? given : [...own, ...given];
  });
  const holder: SecretsHolder = {
    secrets,
    remember(value) {
      if (given.includes(value)) return;
      given.push(value);
      if (given.length > TOKENS_REMEMBERED) given.shift();
    },
  };
  if (typeof token === 'string' && token !== '') holder.remember(token);
  return holder;
}

const HELD = new WeakMap<BaasClient, Secrets>();

/** Records the holder `client` was made with (createBaasClient, once). */
export function holdClientSecrets(client: BaasClient, secrets: Secrets): void {
  HELD.set(client, secrets);
}

/**
 * The one `Secrets` a client made (createBaasClient): its token, every token its source issued that
 * is still alive, its client secret; the command line builds its lines, reports and journals through it.
 */
export function clientSecrets(client: BaasClient): Secrets {
  const secrets = HELD.get(client);
  if (secrets === undefined) throw new TypeError('clientSecrets: not a client made by createBaasClient');
  return secrets;
}
