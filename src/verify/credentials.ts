// verify's credentials, taken as the client takes them: a bearer token, or OAuth2 client
// credentials (src/auth `clientCredentials`), and optionally a client certificate / private CA
// (src/tls) for the API and the token endpoint. This file is the one seam between verify and those
// modules. Secrets come from the environment by preference (never from shell history), are read
// once, and are listed in `secrets` so every output masks them; file contents are never printed.
import { readFileSync } from 'node:fs';
import { clientCredentials, isTokenError, type ClientAuthMethod } from '../auth/index.js';
import type { TokenSource } from '../client/token.js';
import { isInsecureRemote } from '../loopback.js';
import { lazyTlsFetch } from '../tls/lazy.js';
import type { TlsOptions } from '../tls/options.js';

/** What a run authenticates with, as its first output line names it (never the secret). */
export type CredentialKind = 'token' | 'client credentials' | 'none';

/** Gives the Authorization header value for each request, or undefined for none. */
export interface CredentialSource {
  /** Which credential this is: a token held, client credentials, or none at all. */
  readonly kind: CredentialKind;
  /**
   * The credential as the library takes it (createBaasClient's `token`): the token held, or the
   * clientCredentials source itself (its cache, refresh and secrets); undefined for none.
   */
  readonly token: TokenSource | undefined;
  /** The Authorization header value for a request, or undefined for none. */
  authorization(): Promise<string | undefined>;
  /** Strings to mask wherever output is written (tokens, client secrets, passphrases); grows as tokens are issued. */
  readonly secrets: readonly string[];
  /** Sends every request of the run when a client certificate or private CA is in use. */
  readonly fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** Releases pooled TLS connections. */
  close(): Promise<void>;
}

export class CredentialError extends Error {
  override readonly name = 'CredentialError';
}

/** The command-line values that concern credentials (see options.ts). */
export interface CredentialFlags {
  token?: string | undefined;
  'token-url'?: string | undefined;
  'client-id'?: string | undefined;
  'client-secret'?: string | undefined;
  scope?: string | undefined;
  'auth-method'?: string | undefined;
  cert?: string | undefined;
  key?: string | undefined;
  pfx?: string | undefined;
  ca?: string | undefined;
  /** Lets --token-url be plain http to a host that is not loopback (options.ts says so on every output). */
  'allow-insecure-http'?: boolean | undefined;
}

/** Environment variables read for secrets, so they stay out of shell history and `ps`. */
export const ENV = {
  token: 'BAAS_TOKEN',
  clientSecret: 'BAAS_CLIENT_SECRET',
  passphrase: 'BAAS_TLS_PASSPHRASE',
} as const;

/** The methods `--auth-method` takes, named as the library (`authMethod`) and RFC 7591 name them. */
const AUTH_METHODS: readonly ClientAuthMethod[] = ['client_secret_basic', 'client_secret_post'];

/** What to give when there are no credentials at all (a usage error before anything is sent). */
/** clientCredentials' option names, as the command line spells them. */
const FLAG_OF_FIELD: Record<string, string> = {
  tokenUrl: '--token-url',
  clientId: '--client-id',
  clientSecret: `the client secret (${ENV.clientSecret} or --client-secret)`,
  scope: '--scope',
  authMethod: '--auth-method',
};

export const MISSING_CREDENTIALS = `no credentials: ${ENV.token} is not set and no --token was given; give a token (--token TOKEN, or ${ENV.token}), or client credentials (--token-url URL --client-id ID, with the secret in ${ENV.clientSecret})`;

/** Where to look when the service refuses the credentials of `kind`: the flags and variables that gave them. */
export function credentialHint(kind: CredentialKind): string {
  if (kind === 'token') return `check --token / ${ENV.token}`;
  if (kind === 'client credentials')
    return `check --client-id, ${ENV.clientSecret} (or --client-secret), --scope and --token-url`;
  return MISSING_CREDENTIALS;
}

/**
 * Credentials a run could not use: the service answered its first authenticated request with 401 or
 * 403, or the token endpoint refused the client credentials. The checks that need an accepted token
 * are then not run rather than blamed.
 */
export interface CredentialRefusal {
  by: 'service' | 'token endpoint';
  /** The HTTP status of the refusal, when there was one. */
  status: number | undefined;
  /** RFC 6749 §5.2 `error` of a token endpoint's refusal, when it is a plain code (`invalid_client`). */
  code?: string;
}

/** The refusal in a token endpoint's TokenError ('rejected': it answered, and said no); undefined for anything else. */
export function tokenEndpointRefusal(error: unknown): CredentialRefusal | undefined {
  if (!isTokenError(error) || error.failure !== 'rejected') return undefined;
  // Only a code as RFC 6749 spells them: the endpoint is not trusted to put words in the summary.
  const code = error.error !== undefined && /^[a-z_]{1,40}$/.test(error.error) ? error.error : undefined;
  return { by: 'token endpoint', status: error.status, ...(code ? { code } : {}) };
}

/** The status (and code) of a refusal, as the table shows it: `401`, `400 invalid_client`. */
export function refusalStatus(refusal: CredentialRefusal): string {
  return [refusal.status ?? 'no status', refusal.code].filter((part) => part !== undefined).join(' ');
}

/** The summary of a refused run: who refused what, and where to look. */
export function refusalMessage(kind: CredentialKind, refusal: CredentialRefusal): string {
  // A 404 or 405 says the URL is not a token endpoint at all: the credentials were never looked at.
  if (refusal.by === 'token endpoint' && (refusal.status === 404 || refusal.status === 405))
    return `the token URL answered ${refusal.status} (${refusal.status === 404 ? 'not found' : 'method not allowed'}): it is not the token endpoint; check --token-url`;
  const who =
    refusal.by === 'service'
      ? 'the service refused the credentials'
      : 'the token endpoint refused the client credentials';
  return `${who} (${refusalStatus(refusal)}): ${credentialHint(kind)}`;
}

/** `--token`: a bearer token the user already holds. */
export function staticToken(token: string | undefined): CredentialSource {
  return {
    kind: token ? 'token' : 'none',
    token: token || undefined,
    authorization: async () => (token ? `Bearer ${token}` : undefined),
    secrets: token ? [token] : [],
    close: async () => undefined,
  };
}

function readMaterial(flag: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    // The path is the user's own argument; the contents never appear. Node's file errors all carry a code.
    throw new CredentialError(`--${flag}: cannot read ${path} (${(error as NodeJS.ErrnoException).code})`);
  }
}

/** The `tls` option the client would take, from --cert/--key/--pfx/--ca and BAAS_TLS_PASSPHRASE; undefined when none is given. */
export function tlsFrom(
  flags: CredentialFlags,
  env: Readonly<Record<string, string | undefined>>,
): TlsOptions | undefined {
  const { cert, key, pfx, ca } = flags;
  if (!cert && !key && !pfx && !ca) return undefined;
  if (pfx && (cert || key)) throw new CredentialError('give either --pfx or --cert and --key, not both');
  if (Boolean(cert) !== Boolean(key))
    throw new CredentialError(`--${cert ? 'key' : 'cert'} is required with --${cert ? 'cert' : 'key'}`);
  const passphrase = env[ENV.passphrase];
  const tls: Record<string, unknown> = {};
  if (cert) Object.assign(tls, { cert: readMaterial('cert', cert), key: readMaterial('key', key!) });
  if (pfx) tls.pfx = readMaterial('pfx', pfx);
  if (passphrase !== undefined && passphrase !== '') {
    if (!cert && !pfx) throw new CredentialError(`${ENV.passphrase} is set but there is no --key or --pfx to decrypt`);
    tls.passphrase = passphrase;
  }
  if (ca) tls.ca = readMaterial('ca', ca);
  return tls as unknown as TlsOptions;
}

/**
 * The credential source for a run: `--token` (or BAAS_TOKEN), or client credentials (`--token-url`,
 * `--client-id`, the secret from BAAS_CLIENT_SECRET or `--client-secret`, `--scope`, `--auth-method`),
 * plus a client certificate when given. Throws CredentialError naming the option on a misuse.
 */
export function credentialsFrom(
  flags: CredentialFlags,
  env: Readonly<Record<string, string | undefined>>,
): CredentialSource {
  const tls = tlsFrom(flags, env);
  const passphrase = tls && 'passphrase' in tls && tls.passphrase ? [tls.passphrase] : [];
  // Built now so a malformed certificate option fails before anything is sent; undici loads on the first request.
  const tlsSend = tls ? lazyTlsFetch(tls, 'tls') : undefined;
  const fetch = tlsSend;
  const closeTls = async () => {
    await tlsSend?.close();
  };

  const usesClientCredentials = ['token-url', 'client-id', 'client-secret', 'scope', 'auth-method'].some(
    (name) => flags[name as keyof CredentialFlags] !== undefined,
  );
  const token = flags.token ?? env[ENV.token];
  if (!usesClientCredentials) {
    const source = staticToken(token);
    return { ...source, secrets: [...source.secrets, ...passphrase], ...(fetch ? { fetch } : {}), close: closeTls };
  }
  if (flags.token !== undefined)
    throw new CredentialError('give either --token or client credentials (--token-url, --client-id), not both');
  const tokenUrl = flags['token-url'];
  const clientId = flags['client-id'];
  const clientSecret = env[ENV.clientSecret] || flags['client-secret'];
  // Every missing part at once, so one rerun is enough.
  const missing = [
    ...(tokenUrl ? [] : ['--token-url URL']),
    ...(clientId ? [] : ['--client-id ID']),
    ...(clientSecret ? [] : [`the secret (${ENV.clientSecret}, preferred, or --client-secret)`]),
  ];
  if (missing.length > 0)
    throw new CredentialError(
      `client credentials need --token-url, --client-id and the client secret; missing: ${missing.join(', ')}`,
    );
  const allowInsecureHttp = flags['allow-insecure-http'] === true;
  // clientCredentials refuses it too, but by its field name; the user typed the flag.
  if (!allowInsecureHttp && isInsecureRemote(tokenUrl!)) {
    throw new CredentialError(
      '--token-url uses plain http to a host that is not loopback, which would send the client secret in clear; use https, or pass --allow-insecure-http',
    );
  }
  const method = flags['auth-method'];
  if (method !== undefined && !AUTH_METHODS.includes(method as ClientAuthMethod))
    throw new CredentialError(
      method === 'basic' || method === 'post'
        ? `--auth-method ${method} is now client_secret_${method} (renamed in 1.0, as the library names it)`
        : `--auth-method must be ${AUTH_METHODS.join(' or ')}`,
    );
  let source: ReturnType<typeof clientCredentials>;
  try {
    source = clientCredentials({
      tokenUrl: tokenUrl!,
      clientId: clientId!,
      clientSecret: clientSecret!,
      ...(flags.scope !== undefined ? { scope: flags.scope } : {}),
      ...(method !== undefined ? { authMethod: method as ClientAuthMethod } : {}),
      ...(allowInsecureHttp ? { allowInsecureHttp } : {}),
      // The same certificate for the token endpoint: mTLS providers ask for it there too.
      ...(tls ? { tls } : {}),
    });
  } catch (error) {
    // clientCredentials names the field and never the value; name the flag the user typed instead.
    throw new CredentialError(
      (error as Error).message.replace(
        /^clientCredentials: (\w+)/,
        (_, field: string) => FLAG_OF_FIELD[field] ?? `client credentials: ${field}`,
      ),
    );
  }
  return {
    kind: 'client credentials',
    token: source,
    authorization: async () => `Bearer ${await source()}`,
    get secrets() {
      return [clientSecret!, ...source.secrets(), ...passphrase];
    },
    ...(fetch ? { fetch } : {}),
    async close() {
      await Promise.all([source.close(), closeTls()]);
    },
  };
}
