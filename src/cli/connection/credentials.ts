// The credentials of every command that calls the API (verify, update-many, export-keys), taken as the
// client takes them: a bearer token, or OAuth2 client credentials (src/auth `clientCredentials`), and
// optionally a client certificate / private CA (src/tls) for the API and the token endpoint; what a
// credential failure means for the user and its exit status. Part of the command line's connection
// layer (src/cli/connection/): the one seam between the commands and those modules. Secrets come from the environment by preference (never from shell history), are read
// once, and every output of a run is built through the one holder of them, the Secrets the run's
// client made (`secretsOf`); file contents are never printed.
import { readFileSync } from 'node:fs';
import {
  clientCredentials,
  type ClientAuthMethod,
  type ClientCredentialsOptions,
} from '../../auth/client-credentials.js';
import { isTokenError, type TokenFailure } from '../../auth/token-error.js';
import type { BaasClient } from '../../client/baas-client.js';
import type { TokenSource } from '../../client/token.js';
import { BaasApiError, BaasAuthError } from '../../errors.js';
import { clientSecrets, heldSecrets, hideQueryValues, type Secrets } from '../../redact.js';
import { isInsecureRemote } from '../../loopback.js';
import { lazyTlsFetch, type TlsTarget } from '../../tls/lazy.js';
import { tokenTextProblem } from '../../token-text.js';
import type { ConnectOptions, TlsOptions } from '../../tls/options.js';
import { type BaasOptionError, isBaasOptionError } from '../../option-rules.js';
import { PERMANENT_TLS_KINDS, type TlsFailureKind } from '../../tls/failure.js';
import { EXIT } from './exit-codes.js';

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
  /**
   * The one holder of what the run's output must never show, through which every line, report and
   * journal of the run is built: the Secrets `client` made (clientSecrets: its token, every token its
   * source issued that is still alive, the client secret and id), with the TLS passphrase, which only
   * this process holds. Without a client (verify sends through the transport itself, and what is said
   * before a client exists), a holder made as createBaasClient makes its own, kept for the run.
   */
  secretsOf(client?: BaasClient): Secrets;
  /** --token-url as messages show it (masked, its query values hidden); undefined with a token held. */
  readonly shownTokenUrl?: string;
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
  /** The service's root, checked already (base-url.ts): here only to refuse a client certificate over plain http. */
  'base-url'?: string | undefined;
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

/**
 * The flag (or variable) that gives each library option the command line sets, keyed by the option as a
 * refusal names it (`BaasOptionError.option`), under any of the prefixes TLS_OPTION_AT allows:
 * clientCredentials' options, and the members of the `tls` option built from --cert, --key, --pfx, --ca
 * and BAAS_TLS_PASSPHRASE (the client's `tls`, and the same given to clientCredentials as its `tls`).
 */
const FLAG_OF_OPTION: Readonly<Record<string, string>> = {
  ...({
    tokenUrl: '--token-url',
    clientId: '--client-id',
    clientSecret: `the client secret (${ENV.clientSecret} or --client-secret)`,
    scope: '--scope',
    authMethod: '--auth-method',
  } satisfies Partial<Record<keyof ClientCredentialsOptions, string>>),
  ...({
    'tls.cert': '--cert',
    'tls.key': '--key',
    'tls.pfx': '--pfx',
    'tls.ca': '--ca',
    'tls.passphrase': ENV.passphrase,
  } satisfies Record<`tls.${keyof ConnectOptions}`, string>),
  tls: 'a client certificate (--cert and --key, --pfx, or --ca)',
};

// The prefixes under which an option path names an option of FLAG_OF_OPTION: the command line gives the
// same settings to the client and to clientCredentials, so `clientCredentials.tls.passphrase` is
// `tls.passphrase` and `clientCredentials.tokenUrl` is `tokenUrl`. A member's index (`tls.ca[1]`) names the
// member's flag too.
const OPTION_PREFIX = /^(?:clientCredentials\.)?/;
const OPTION_PATH = /^(?:clientCredentials\.)?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)?)(?:\[\d+\])*$/;

/** The flag that gives `option` (an option path as a refusal names it), by the rule above; undefined for none. */
export function flagOfOption(option: string): string | undefined {
  const path = OPTION_PATH.exec(option)?.[1];
  return path !== undefined && Object.hasOwn(FLAG_OF_OPTION, path) ? FLAG_OF_OPTION[path] : undefined;
}

/** Whether `option` (an option path) is the `tls` option or one of its members, under any prefix the rule allows. */
export const isTlsOption = (option: string): boolean => /^tls(?:$|[.[])/.test(option.replace(OPTION_PREFIX, ''));

// An option path of the `tls` option in a library's words (`clientCredentials.tls.passphrase`, `tls.key`).
const TLS_OPTION_IN_TEXT = /(?<![\w:./-])(?:clientCredentials\.)?tls(?:\.[A-Za-z]+)?\b/g;

/** A library's text with each option path of the `tls` option named by its flag (`tls.key` is `--key`). */
export function inFlagTerms(text: string): string {
  return text.replace(TLS_OPTION_IN_TEXT, (option) => flagOfOption(option) ?? option);
}

/**
 * A library's refusal of an option the command line set, in the command line's words: the flag that gave
 * the option, then the rule (`--client-id must not contain control characters`), its own mentions of the
 * `tls` option named by their flags too. Read from the error's `option` and `rule`, never from its
 * message; an option no flag gives keeps its own name.
 */
export function flagRefusal(error: BaasOptionError): CredentialError {
  const flag = flagOfOption(error.option) ?? (error.where ? `${error.where}: ${error.option}` : error.option);
  return new CredentialError(`${flag} ${inFlagTerms(error.rule)}`);
}

export const MISSING_CREDENTIALS = `no credentials: ${ENV.token} is not set and no --token was given; give a token (--token TOKEN, or ${ENV.token}), or client credentials (--token-url URL --client-id ID, with the secret in ${ENV.clientSecret})`;

/** Where to look when the service refuses the credentials of `kind`: the flags and variables that gave them. */
export function credentialHint(kind: CredentialKind): string {
  if (kind === 'token') return `check --token / ${ENV.token}`;
  if (kind === 'client credentials')
    return `check --client-id, ${ENV.clientSecret} (or --client-secret), --scope and --token-url`;
  return MISSING_CREDENTIALS;
}

/**
 * Credentials a run could not use: the service answered an authenticated request with 401 or 403, or
 * the token endpoint gave no token. The checks that need an accepted token are then not run rather
 * than blamed, and the batch commands stop at the first line.
 */
export interface CredentialRefusal {
  by: 'service' | 'token endpoint';
  /** The HTTP status of the refusal, when there was one. */
  status: number | undefined;
  /** RFC 6749 §5.2 `error` of a token endpoint's refusal, when it is a plain code (`invalid_client`). */
  code?: string;
  /** How the token request failed (a BaasTokenError's `failure`): absent for the service's 401 or 403. */
  failure?: TokenFailure;
  /** The local TLS failure that kept the token request from being sent or answered (localTlsFailure). */
  tls?: LocalTlsFailure;
}

/**
 * A TLS failure the command line must change to cure, read from an error's cause chain (localTlsFailure):
 * a TLS failure that says another attempt cannot cure it (src/tls/failure.ts: the option, a certificate,
 * the negotiation), or a library's refusal of the `tls` option (a BaasOptionError).
 */
export interface LocalTlsFailure {
  /** What it is a verdict on (src/tls/failure.ts), `option` for a refused `tls` option. */
  kind: TlsFailureKind;
  /** The failure's code (ERR_TLS_OPTION, CLIENT_CERT_EXPIRED, …), when it has one. */
  code?: string;
  /** What went wrong, in the command line's words (flags, not options). */
  reason: string;
}

const TLS_KINDS: ReadonlySet<string> = new Set<TlsFailureKind>([...PERMANENT_TLS_KINDS, 'connection']);

/** The local TLS failure somewhere in `error`'s cause chain (see LocalTlsFailure), or undefined for none. */
export function localTlsFailure(error: unknown): LocalTlsFailure | undefined {
  for (let current: unknown = error, depth = 0; current && typeof current === 'object' && depth < 6; depth += 1) {
    if (isBaasOptionError(current) && isTlsOption(current.option))
      return { kind: 'option', reason: flagRefusal(current).message };
    const { kind, code, reason, incurable } = current as Record<string, unknown>;
    // The rule of src/tls/failure.ts, read from its fields: a TLS kind that says it is incurable.
    if (typeof kind === 'string' && TLS_KINDS.has(kind) && typeof incurable === 'string' && incurable)
      return {
        kind: kind as TlsFailureKind,
        ...(typeof code === 'string' ? { code } : {}),
        reason: inFlagTerms(typeof reason === 'string' && reason ? reason : `a TLS failure (${kind})`),
      };
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * What a credential failure means for the user, which decides the words and the exit status:
 * - `refused`: the service or the token endpoint said no to these credentials (401, 403, 400
 *   `invalid_client`, …): fix the credentials;
 * - `token-url`: what --token-url names is not a token endpoint (404, 405, or a 2xx that is no token
 *   answer, such as an HTML page): fix --token-url;
 * - `unavailable`: the token endpoint failed or could not be reached (5xx, 429, no answer, too slow):
 *   nothing the user typed is known to be wrong; try again later.
 * - `tls`: the token request failed here, on TLS, in a way another attempt cannot cure (a key that cannot be
 *   used, a missing BAAS_TLS_PASSPHRASE, an expired or refused --cert, an authority --ca does not give):
 *   fix --cert, --key, --pfx, --ca or BAAS_TLS_PASSPHRASE.
 */
export type CredentialTrouble = 'refused' | 'token-url' | 'unavailable' | 'tls';

export function troubleOf(refusal: CredentialRefusal): CredentialTrouble {
  if (refusal.by === 'service') return 'refused';
  if (refusal.tls !== undefined) return 'tls';
  if (refusal.failure === 'network' || refusal.failure === 'timeout') return 'unavailable';
  if (refusal.failure === 'invalid_response')
    return refusal.status !== undefined && refusal.status < 300 ? 'token-url' : 'unavailable';
  const status = refusal.status ?? 0;
  if (status === 404 || status === 405) return 'token-url';
  if (status >= 500 || status === 429) return 'unavailable';
  return 'refused';
}

/**
 * The exit status of a command whose credentials failed: 2, as for a usage error, when the command
 * line must change before a rerun can work (credentials refused, --token-url not a token endpoint, a local
 * TLS failure);
 * `failedRun` (the command's "the run failed") when the token endpoint was only unavailable.
 */
export function exitOfTrouble(trouble: CredentialTrouble, failedRun: number): number {
  return trouble === 'unavailable' ? failedRun : EXIT.usage;
}

/** The refusal in a token endpoint's BaasTokenError, whatever its failure; undefined for anything else. */
export function tokenEndpointRefusal(error: unknown): CredentialRefusal | undefined {
  if (!isTokenError(error)) return undefined;
  // Only a code as RFC 6749 spells them: the endpoint is not trusted to put words in the summary.
  const code =
    error.failure === 'rejected' && error.error !== undefined && /^[a-z_]{1,40}$/.test(error.error)
      ? error.error
      : undefined;
  const tls = localTlsFailure(error.cause);
  return {
    by: 'token endpoint',
    status: error.status,
    failure: error.failure,
    ...(code ? { code } : {}),
    ...(tls ? { tls } : {}),
  };
}

/**
 * The credential failure behind an error a command met, or undefined when it is not one: the client's
 * BaasAuthError (whose cause is clientCredentials' BaasTokenError), a BaasTokenError itself (verify's requests),
 * or the service's 401 or 403 (a BaasApiError).
 */
export function credentialFailure(error: unknown): CredentialRefusal | undefined {
  if (error instanceof BaasApiError) {
    return error.status === 401 || error.status === 403 ? { by: 'service', status: error.status } : undefined;
  }
  if (isTokenError(error)) return tokenEndpointRefusal(error);
  if (error instanceof BaasAuthError) {
    const refusal = tokenEndpointRefusal(error.cause);
    // A token source of the user's own that failed: nothing says more than that the credentials were not usable.
    return refusal ?? { by: 'token endpoint', status: undefined };
  }
  return undefined;
}

/** The status (and code) of a refusal, as the table shows it: `401`, `400 invalid_client`. */
export function refusalStatus(refusal: CredentialRefusal): string {
  return [refusal.status ?? 'no status', refusal.code].filter((part) => part !== undefined).join(' ');
}

/** A refusal in a few words, for verify's credentials row: `credentials refused (401)`, `not a token endpoint (404)`. */
export function refusalSeen(refusal: CredentialRefusal): string {
  const trouble = troubleOf(refusal);
  const status = refusalStatus(refusal);
  if (refusal.by === 'service') return `credentials refused (${status})`;
  if (trouble === 'tls') return `no token: a local TLS failure (${refusal.tls?.code ?? refusal.tls?.kind})`;
  if (trouble === 'token-url') return `not a token endpoint (${status})`;
  if (trouble === 'unavailable')
    return `no token from the token endpoint (${refusal.failure === 'rejected' || refusal.failure === 'invalid_response' ? status : refusal.failure})`;
  return `refused by the token endpoint (${status})`;
}

/** The flags (and variable) to look at for each kind of local TLS failure. */
const TLS_FLAGS: Readonly<Record<TlsFailureKind, string>> = {
  option: `--cert and --key (or --pfx), ${ENV.passphrase} and --ca`,
  'client-certificate': '--cert and --key (or --pfx): the certificate shown to the token endpoint',
  'server-certificate': "--ca (the authority of the endpoint's certificate) and the host in --token-url",
  negotiation: '--token-url (its server shares no TLS version or cipher with this one)',
  connection: '--cert and --key (or --pfx), and --token-url',
};

const STATUS_WORDS: Readonly<Record<number, string>> = {
  404: 'not found',
  405: 'method not allowed',
  429: 'too many requests',
};

/**
 * What a command says when its credentials failed, the same in verify, update-many and export-keys:
 * who answered what, and the flag or variable to look at. The token URL is shown as `source.shownTokenUrl`
 * has it (masked, its query values hidden).
 */
export function refusalMessage(
  source: Pick<CredentialSource, 'kind' | 'shownTokenUrl'>,
  refusal: CredentialRefusal,
): string {
  const trouble = troubleOf(refusal);
  const url = source.shownTokenUrl ? ` ${source.shownTokenUrl}` : '';
  const status = refusal.status;
  const answered =
    status === undefined || status < 300
      ? `answered ${status ?? ''}`.trimEnd()
      : `answered ${status} (${STATUS_WORDS[status] ?? (status >= 500 ? 'a server error' : 'a client error')})`;
  if (trouble === 'tls' && refusal.tls) {
    const { reason, code, kind } = refusal.tls;
    const shownCode = code === undefined || reason.includes(code) ? '' : ` (${code})`;
    return `no token from the token URL${url}: ${reason}${shownCode}; the cause is on this side and another attempt cannot cure it: check ${TLS_FLAGS[kind]}`;
  }
  if (trouble === 'token-url') {
    // A 404 or 405, or a page that holds no token (an HTML page): the credentials were never looked at.
    return refusal.failure === 'invalid_response'
      ? `the token URL${url} ${answered} but gave no usable token: is it the token endpoint? check --token-url`
      : `the token URL${url} ${answered}: it is not the token endpoint; check --token-url`;
  }
  if (trouble === 'unavailable') {
    const what =
      refusal.failure === 'timeout'
        ? 'did not answer in time'
        : refusal.failure === 'network'
          ? 'could not be reached'
          : refusal.failure === 'invalid_response'
            ? `${answered} with no usable token`
            : answered;
    return `the token URL${url} ${what}: no token was issued; try again later, or check --token-url`;
  }
  const who =
    refusal.by === 'service'
      ? 'the service refused the credentials'
      : 'the token endpoint refused the client credentials';
  return `${who} (${refusalStatus(refusal)}): ${credentialHint(source.kind)}`;
}

/** `--token`: a bearer token the user already holds. */
export function staticToken(token: string | undefined): CredentialSource {
  return {
    kind: token ? 'token' : 'none',
    token: token || undefined,
    authorization: async () => (token ? `Bearer ${token}` : undefined),
    secretsOf: runSecrets(token || undefined, []),
    close: async () => undefined,
  };
}

/**
 * `secretsOf` for a run that authenticates with `token`: a client's own Secrets with `local` (the TLS
 * passphrase), or, without a client, one holder made for the run as a client makes its own.
 */
function runSecrets(token: TokenSource | undefined, local: readonly string[]): CredentialSource['secretsOf'] {
  const own = heldSecrets(token).secrets.with(local);
  return (client) => (client === undefined ? own : clientSecrets(client).with(local));
}

function readMaterial(flag: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    // The path is the user's own argument; the contents never appear. Node's file errors all carry a code.
    throw new CredentialError(`--${flag}: cannot read ${path} (${(error as NodeJS.ErrnoException).code})`);
  }
}

/** What `make` builds from the flags; a library's refusal of an option they set names the flag instead (flagRefusal). */
function fromFlags<T>(make: () => T): T {
  try {
    return make();
  } catch (error) {
    throw isBaasOptionError(error) ? flagRefusal(error) : error;
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

/** The flags that gave a client certificate or a private CA, as the user typed them (`--cert and --key`). */
function tlsFlagsGiven(flags: CredentialFlags): string {
  const given = (['cert', 'key', 'pfx', 'ca'] as const).filter((flag) => flags[flag]).map((flag) => `--${flag}`);
  return given.length > 1 ? `${given.slice(0, -1).join(', ')} and ${given.at(-1)}` : given[0]!;
}

/**
 * A client certificate or private CA with a plain http --base-url or --token-url, refused before any file is
 * read: TLS alone presents them, so over http they would be silently unused (the library's rule,
 * src/tls/lazy.ts, in flag terms). Names both flags, never the URL.
 */
function refuseTlsOverHttp(flags: CredentialFlags): void {
  for (const flag of ['base-url', 'token-url'] as const) {
    const url = flags[flag];
    if (url === undefined || !URL.canParse(url) || new URL(url).protocol !== 'http:') continue;
    const given = tlsFlagsGiven(flags);
    throw new CredentialError(
      `${given} ${given.includes(' and ') ? 'are' : 'is'} never used with --${flag} on plain http: a client certificate and a CA are presented only over https; give --${flag} as https://, or leave ${given} out`,
    );
  }
}

/** Where the run's TLS fetch sends (the service's root), as lazyTlsFetch takes it, when --base-url is a URL. */
function baseUrlTarget(flags: CredentialFlags): TlsTarget | undefined {
  const url = flags['base-url'];
  return url !== undefined && URL.canParse(url) ? { option: 'baseUrl', url: new URL(url) } : undefined;
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
  if (flags.cert || flags.key || flags.pfx || flags.ca) refuseTlsOverHttp(flags);
  const tls = tlsFrom(flags, env);
  const passphrase = tls && 'passphrase' in tls && tls.passphrase ? [tls.passphrase] : [];
  // Built now so a malformed certificate option fails before anything is sent; undici loads on the first request.
  const tlsSend = tls ? fromFlags(() => lazyTlsFetch(tls, 'tls', baseUrlTarget(flags))) : undefined;
  const fetch = tlsSend;
  const closeTls = async () => {
    await tlsSend?.close();
  };

  const usesClientCredentials = ['token-url', 'client-id', 'client-secret', 'scope', 'auth-method'].some(
    (name) => flags[name as keyof CredentialFlags] !== undefined,
  );
  const token = flags.token ?? env[ENV.token];
  if (!usesClientCredentials) {
    const headerValue = token === undefined ? undefined : tokenTextProblem(token);
    if (headerValue !== undefined)
      throw new CredentialError(`${flags.token !== undefined ? '--token' : ENV.token} ${headerValue}`);
    const source = staticToken(token);
    return {
      ...source,
      secretsOf: runSecrets(source.token, passphrase),
      ...(fetch ? { fetch } : {}),
      close: closeTls,
    };
  }
  if (flags.token !== undefined) {
    // Only the settings of client credentials beside a token (--auth-method basic, say): those are the mistake.
    const settingsOnly = ['token-url', 'client-id', 'client-secret'].every(
      (name) => flags[name as keyof CredentialFlags] === undefined,
    );
    if (settingsOnly)
      throw new CredentialError(
        '--scope and --auth-method apply to client credentials (--token-url, --client-id) only; with --token, leave them out',
      );
    throw new CredentialError('give either --token or client credentials (--token-url, --client-id), not both');
  }
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
  const source = fromFlags(() =>
    clientCredentials({
      tokenUrl: tokenUrl!,
      clientId: clientId!,
      clientSecret: clientSecret!,
      ...(flags.scope !== undefined ? { scope: flags.scope } : {}),
      ...(method !== undefined ? { authMethod: method as ClientAuthMethod } : {}),
      ...(allowInsecureHttp ? { allowInsecureHttp } : {}),
      // The same certificate for the token endpoint: mTLS providers ask for it there too.
      ...(tls ? { tls } : {}),
    }),
  );
  const secretsOf = runSecrets(source, passphrase);
  return {
    kind: 'client credentials',
    token: source,
    shownTokenUrl: hideQueryValues(secretsOf().url(tokenUrl!)),
    authorization: async () => `Bearer ${await source()}`,
    secretsOf,
    ...(fetch ? { fetch } : {}),
    async close() {
      await Promise.all([source.close(), closeTls()]);
    },
  };
}
