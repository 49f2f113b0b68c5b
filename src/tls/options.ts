// The `tls` option: a client certificate (PEM pair or PKCS#12) and/or a private authority to trust.
// Checked when the client is created, so a misconfiguration fails before anything is sent. Refusals
// (BaasOptionError) name the field and the rule, never a value: these fields hold private keys.

import { checkOptions, goIn, must, optionError, type OptionRules, TLS_SHAPES } from '../option-rules.js';

/** PEM text or raw bytes (a Node Buffer is a Uint8Array). */
export type TlsMaterial = string | Uint8Array;

// Each shape of `tls` has a name a program can write (a config helper returning a PEM pair, say).
/** A client certificate and its private key, in PEM. */
export interface PemClientCertificate {
  /** The client certificate (and its chain), PEM. */
  cert: TlsMaterial;
  /** Its private key, PEM; masked like a secret. */
  key: TlsMaterial;
  /** Decrypts an encrypted `key`. */
  passphrase?: string;
  /** Authorities to trust for the server's certificate, in place of the default roots. */
  ca?: TlsMaterial | readonly TlsMaterial[];
}

/** A client certificate and key in one PKCS#12 (.p12/.pfx) file. */
export interface PfxClientCertificate {
  /** The PKCS#12 file's bytes (or base64 text). */
  pfx: TlsMaterial;
  /** Decrypts `pfx`. */
  passphrase?: string;
  /** Authorities to trust for the server's certificate, in place of the default roots. */
  ca?: TlsMaterial | readonly TlsMaterial[];
}

/** Only a private authority to trust for the server's certificate, no client certificate. */
export interface PrivateCaOnly {
  /** Authorities to trust for the server's certificate, in place of the default roots. */
  ca: TlsMaterial | readonly TlsMaterial[];
}

/** A client certificate (PEM pair or PKCS#12) and/or a private authority to trust: one of the three shapes. */
export type TlsOptions = PemClientCertificate | PfxClientCertificate | PrivateCaOnly;

/** What undici's `connect` (and node:tls) take; only the fields that were given. */
export interface ConnectOptions {
  cert?: TlsMaterial;
  key?: TlsMaterial;
  pfx?: TlsMaterial;
  passphrase?: string;
  ca?: TlsMaterial | TlsMaterial[];
}

const isMaterial = (value: unknown): value is TlsMaterial =>
  (typeof value === 'string' && value.trim().length > 0) || (value instanceof Uint8Array && value.byteLength > 0);

const MATERIAL = must(isMaterial, 'must be non-empty PEM text or bytes');

// Every member of the three shapes, once, with its rule: tsc fails here when one of them gains or loses
// one. Its names are the only ones `tls` takes (any other is refused: an ignored `rejectUnauthorized`
// would be a guarantee lost without a word); the rules between members are checkTlsOptions'.
const TLS_RULES: OptionRules<PemClientCertificate & PfxClientCertificate & PrivateCaOnly> = {
  cert: MATERIAL,
  key: MATERIAL,
  pfx: MATERIAL,
  passphrase: must((value) => typeof value === 'string', 'must be a string'),
  ca: {
    check: (ca) => {
      if (!Array.isArray(ca)) return isMaterial(ca) ? undefined : MATERIAL.check(ca);
      if (ca.length === 0) return 'must not be an empty list';
      const wrong = ca.findIndex((item) => !isMaterial(item));
      return wrong < 0 ? undefined : { at: `[${wrong}]`, rule: 'must be non-empty PEM text or bytes' };
    },
    error: TypeError,
  },
};

/** The members of `tls` as going in it, for the options that have a `tls` (`cert` beside it is refused, saying so). */
export const TLS_HOMES = goIn(TLS_RULES, `tls: ${TLS_SHAPES}`);

const SHAPES = 'must be an object: { cert, key, passphrase? }, { pfx, passphrase? } or { ca }';

/**
 * Checks the shape of a `tls` option and returns the connect options; throws a BaasOptionError (a
 * TypeError) naming the member by its path: `where` is the option's own (`tls`, `clientCredentials.tls`).
 */
export function checkTlsOptions(tls: unknown, where = 'tls'): ConnectOptions {
  const refuse = (option: string, rule: string) => optionError({ option, rule });
  if (!tls || typeof tls !== 'object' || Array.isArray(tls)) throw refuse(where, SHAPES);
  const given = tls as Record<string, unknown>;
  const has = (name: string) => given[name] !== undefined;
  const at = (name: string) => `${where}.${name}`;
  checkOptions({ path: where }, given, TLS_RULES, { closed: true });
  if (has('pfx') && (has('cert') || has('key'))) throw refuse(where, 'must hold either pfx or cert and key, not both');
  if (has('cert') !== has('key'))
    throw refuse(at(has('cert') ? 'key' : 'cert'), `is required with ${at(has('cert') ? 'cert' : 'key')}`);
  if (has('passphrase') && !has('key') && !has('pfx'))
    throw refuse(at('passphrase'), 'needs a key or a pfx to decrypt');
  if (!has('cert') && !has('pfx') && !has('ca'))
    throw refuse(where, 'needs a client certificate ({ cert, key } or { pfx }) or a ca');
  // Only the fields that were given, as they were given (a single ca stays a single value).
  const out: ConnectOptions = {};
  for (const name of Object.keys(TLS_RULES) as (keyof ConnectOptions)[])
    if (has(name)) Object.assign(out, { [name]: given[name] });
  return out;
}
