// The `tls` option: a client certificate (PEM pair or PKCS#12) and/or a private authority to trust.
// Checked when the client is created, so a misconfiguration fails before anything is sent. Refusals
// (BaasOptionError) name the field and the rule, never a value: these fields hold private keys.

import {
  checkOptions,
  goIn,
  must,
  optionError,
  type OptionRule,
  type OptionRules,
  TLS_SHAPES,
} from '../option-rules.js';

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
  /** The PKCS#12 file's bytes, e.g. `readFileSync('client.p12')` (never a string). */
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

const MATERIAL_WORDS = 'must be non-empty PEM text or bytes';

// THE rule of PEM (RFC 7468): text holding blocks `-----BEGIN <label>-----` … `-----END <label>-----`, the
// label saying what the block holds. `cert` and each `ca` take certificates (label CERTIFICATE, or
// OpenSSL's TRUSTED CERTIFICATE and the legacy X509 CERTIFICATE), `key` a private key (PRIVATE KEY, ENCRYPTED
// PRIVATE KEY, or a legacy RSA/EC/DSA PRIVATE KEY). Material with no block of the kind its field takes is
// refused here, at creation, saying what it holds instead: a block of another kind (by its label, which
// is no secret), text that looks like a file path, or neither. Bytes are read as the text they hold. What
// the format cannot tell (a wrong passphrase, a key of another certificate) is OpenSSL's, when the TLS
// fetch is built (agent.ts).
const PEM_LABEL = /-----BEGIN ([!-,.-~](?:[- ]?[!-,.-~])*)-----/g;
const labelsOf = (text: string): string[] => [...text.matchAll(PEM_LABEL)].map(([, label]) => label!);
const isCertificateLabel = (label: string) => /(^| )CERTIFICATE$/.test(label);
const isKeyLabel = (label: string) => /(^| )PRIVATE KEY$/.test(label);

// One line that begins as a path does (`/`, `./`, `../`, `~/`, `C:\\`) or ends with a file extension
// (`client.crt`, `certs/client.key`): a path given for the file's contents. Base64 on one line does neither.
const looksLikePath = (text: string): boolean => {
  const line = text.trim();
  return (
    !/[\r\n]/.test(line) && (/^(\/|\.{1,2}[/\\]|~[/\\]|[A-Za-z]:[/\\])/.test(line) || /\.[A-Za-z0-9]{1,5}$/.test(line))
  );
};

const asText = (value: TlsMaterial): string =>
  typeof value === 'string' ? value : new TextDecoder('latin1').decode(value);

interface PemKind {
  /** The block it takes, as the rule's words name it. */
  block: string;
  holds: (label: string) => boolean;
  /** What to say when it holds a block of another kind (the label it holds), beyond naming it. */
  other: (label: string) => string;
  /** The openssl command that turns DER bytes of this kind into PEM. */
  fromDer: string;
}

const CERTIFICATE_BLOCK: PemKind = {
  block: '-----BEGIN CERTIFICATE-----',
  holds: isCertificateLabel,
  other: (label) => (isKeyLabel(label) ? ': cert and key swapped?' : ''),
  fromDer: 'openssl x509 -inform der',
};
const KEY_BLOCK: PemKind = {
  block: '-----BEGIN … PRIVATE KEY-----',
  holds: isKeyLabel,
  other: (label) => (isCertificateLabel(label) ? ': cert and key swapped?' : ''),
  fromDer: 'openssl pkey -inform der',
};
const CA_BLOCK: PemKind = {
  block: '-----BEGIN CERTIFICATE-----',
  holds: isCertificateLabel,
  other: (label) => (isKeyLabel(label) ? ": ca takes the authority's certificate, never a key" : ''),
  fromDer: 'openssl x509 -inform der',
};

/** Why `value` is not PEM material of `kind`, in the words after its name; undefined when it is. */
function pemProblem(value: unknown, kind: PemKind): string | undefined {
  if (!isMaterial(value)) return MATERIAL_WORDS;
  const text = asText(value);
  const labels = labelsOf(text);
  if (labels.some(kind.holds)) return undefined;
  const [other] = labels;
  if (other !== undefined)
    return `holds ${/^[AEIOU]/.test(other) ? 'an' : 'a'} ${other}, not a ${kind.block} block${kind.other(other)}`;
  if (typeof value === 'string' && looksLikePath(value))
    return "is not PEM text; it looks like a file path: pass readFileSync(path, 'utf8')";
  return typeof value === 'string'
    ? `is not PEM text: it must hold a ${kind.block} block`
    : `holds no PEM block: it must hold a ${kind.block} block (DER bytes? ${kind.fromDer} converts them)`;
}

const pemRule = (kind: PemKind): OptionRule => ({ check: (value) => pemProblem(value, kind), error: TypeError });

// PKCS#12 (RFC 7292) is DER: its bytes begin with an ASN.1 SEQUENCE (0x30). A string is never the file (node:tls
// would read it as UTF-8 text: "header too long", "not enough data"), nor is PEM text.
const PFX_RULE: OptionRule = {
  check: (pfx) => {
    if (typeof pfx === 'string')
      return pfx.trim() === ''
        ? MATERIAL_WORDS
        : "must be the PKCS#12 file's bytes, not a string: pass readFileSync(path) (without 'utf8')";
    if (pfx instanceof Uint8Array && pfx.byteLength === 0) return MATERIAL_WORDS;
    if (!isMaterial(pfx)) return "must be the PKCS#12 file's bytes, e.g. pfx: readFileSync(path)";
    const [label] = labelsOf(asText(pfx));
    if (label !== undefined) return `holds PEM (a ${label}), not a PKCS#12 file: give PEM as cert and key instead`;
    return pfx[0] === 0x30 ? undefined : 'is not a PKCS#12 file (its bytes do not begin as DER does, with 0x30)';
  },
  error: TypeError,
};

// Names other libraries and tools give these members (got's certificate and certificateAuthority, curl's
// --pass and --cacert, a password for the passphrase), declared once: a misspelling's edit distance does
// not reach them, and each would otherwise be refused without the member meant.
const OTHER_NAMES = {
  password: 'passphrase',
  pass: 'passphrase',
  certificate: 'cert',
  privateKey: 'key',
  certificateAuthority: 'ca',
  cacert: 'ca',
  p12: 'pfx',
  pkcs12: 'pfx',
};

// Every member of the three shapes, once, with its rule: tsc fails here when one of them gains or loses
// one. Its names are the only ones `tls` takes (any other is refused: an ignored `rejectUnauthorized`
// would be a guarantee lost without a word); the rules between members are checkTlsOptions'.
const TLS_RULES: OptionRules<PemClientCertificate & PfxClientCertificate & PrivateCaOnly> = {
  cert: pemRule(CERTIFICATE_BLOCK),
  key: pemRule(KEY_BLOCK),
  pfx: PFX_RULE,
  passphrase: must((value) => typeof value === 'string', 'must be a string'),
  ca: {
    check: (ca) => {
      if (!Array.isArray(ca)) return pemProblem(ca, CA_BLOCK);
      if (ca.length === 0) return 'must not be an empty list';
      for (const [index, item] of ca.entries()) {
        const problem = pemProblem(item, CA_BLOCK);
        if (problem !== undefined) return { at: `[${index}]`, rule: problem };
      }
      return undefined;
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
  checkOptions({ path: where }, given, TLS_RULES, { closed: true, aliases: OTHER_NAMES });
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
