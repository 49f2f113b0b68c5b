// The `tls` option: a client certificate (PEM pair or PKCS#12) and/or a private authority to trust.
// Checked when the client is created, so a misconfiguration fails before anything is sent. Messages
// name the field and the rule, never a value: these fields hold private keys.

import { closestName } from '../words.js';

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

// Every member of the three shapes, once: tsc fails here when one of them gains or loses one.
const KNOWN = new Set(
  Object.keys({ cert: true, key: true, pfx: true, passphrase: true, ca: true } satisfies Record<
    keyof (PemClientCertificate & PfxClientCertificate & PrivateCaOnly),
    true
  >),
);

const isMaterial = (value: unknown): value is TlsMaterial =>
  (typeof value === 'string' && value.trim().length > 0) || (value instanceof Uint8Array && value.byteLength > 0);

/** Checks the shape of a `tls` option and returns the connect options; throws TypeError naming the field. */
export function checkTlsOptions(tls: unknown, where = 'tls'): ConnectOptions {
  if (!tls || typeof tls !== 'object' || Array.isArray(tls)) {
    throw new TypeError(`${where} must be an object: { cert, key, passphrase? }, { pfx, passphrase? } or { ca }`);
  }
  const given = tls as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (!KNOWN.has(name) && given[name] !== undefined) {
      const meant = closestName(name, [...KNOWN]);
      throw new TypeError(
        `${where}.${name} is not a tls option${meant ? `; did you mean ${meant}?` : ''} (known: ${[...KNOWN].join(', ')})`,
      );
    }
  }
  const has = (name: string) => given[name] !== undefined;
  const material = (name: string) => {
    if (!isMaterial(given[name])) throw new TypeError(`${where}.${name} must be non-empty PEM text or bytes`);
    return given[name] as TlsMaterial;
  };
  const out: ConnectOptions = {};

  if (has('pfx') && (has('cert') || has('key')))
    throw new TypeError(`${where}: give either pfx or cert and key, not both`);
  if (has('cert') !== has('key'))
    throw new TypeError(
      `${where}.${has('cert') ? 'key' : 'cert'} is required with ${where}.${has('cert') ? 'cert' : 'key'}`,
    );
  if (has('cert')) {
    out.cert = material('cert');
    out.key = material('key');
  }
  if (has('pfx')) out.pfx = material('pfx');
  if (has('passphrase')) {
    if (typeof given.passphrase !== 'string') throw new TypeError(`${where}.passphrase must be a string`);
    if (!has('key') && !has('pfx')) throw new TypeError(`${where}.passphrase needs a key or a pfx to decrypt`);
    out.passphrase = given.passphrase;
  }
  if (has('ca')) {
    const list = Array.isArray(given.ca) ? (given.ca as unknown[]) : [given.ca];
    if (list.length === 0) throw new TypeError(`${where}.ca must not be an empty list`);
    list.forEach((item, i) => {
      if (!isMaterial(item))
        throw new TypeError(
          `${where}.ca${Array.isArray(given.ca) ? `[${i}]` : ''} must be non-empty PEM text or bytes`,
        );
    });
    out.ca = Array.isArray(given.ca) ? (list as TlsMaterial[]) : (given.ca as TlsMaterial);
  }
  if (!out.cert && !out.pfx && !out.ca)
    throw new TypeError(`${where} needs a client certificate ({ cert, key } or { pfx }) or a ca`);
  return out;
}
