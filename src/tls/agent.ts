// A fetch that presents a client certificate: undici's `fetch` with an `Agent` as dispatcher, built
// from checked connect options. undici (an optional peer) and node:tls load here, by dynamic import,
// only when a `tls` option is given, so the package imports no Node-only module statically. The
// specifier goes through a variable so that bundlers neither inline undici nor fail when the
// optional peer is absent.
import type { ConnectOptions, TlsMaterial } from './options.js';
import { TlsConnectionError, tlsFailure, type TlsFailure } from './failure.js';
import { SocketWatch } from './watch.js';
import type { FetchLike } from '../fetch.js';
import { fromUrlInitFetch, type UrlInitFetch } from './adapt.js';
import { optionError, type OptionProblem } from '../option-rules.js';

/** The client's fetch shape, `fetch(url, init)`, plus `close()` to release the agent's pooled connections. */
export type TlsFetch = FetchLike & { close(): Promise<void> };

export interface TlsFetchOptions {
  /**
   * The `fetch` to send with; it must accept (url, init) with undici's `dispatcher` in init. Default
   * the `undici` package's fetch, whose `Agent` is the dispatcher (Node's global fetch is undici too,
   * but a different copy, and mixing copies is not supported).
   */
  fetch?: UrlInitFetch;
  /** Used in messages, e.g. `clientCredentials.tls`. Default `tls`. */
  where?: string;
}

type Undici = typeof import('undici');
type NodeTls = typeof import('node:tls');

const importOptional = (specifier: string): Promise<unknown> => import(specifier);

async function loadUndici(where: string): Promise<Undici> {
  try {
    // Sends outside the transport: undici is loaded for its Agent (the dispatcher of a client certificate)
    // and its fetch, which become the FetchLike the transport's attempt calls (its timer, redirects, limit).
    return (await importOptional('undici')) as Undici;
  } catch (error) {
    throw new Error(`${where} needs the optional peer dependency undici: npm install undici@^7`, { cause: error });
  }
}

type NodeMaterial = string | Buffer;
interface NodeConnect {
  cert?: NodeMaterial;
  key?: NodeMaterial;
  pfx?: NodeMaterial;
  passphrase?: string;
  ca?: NodeMaterial | NodeMaterial[];
}
const toNode = (value: TlsMaterial): NodeMaterial =>
  typeof value === 'string' || Buffer.isBuffer(value)
    ? value
    : Buffer.from(value.buffer, value.byteOffset, value.byteLength);

/** node:tls and undici take Buffers, not any Uint8Array. */
function nodeConnect(connect: ConnectOptions): NodeConnect {
  return {
    ...(connect.cert ? { cert: toNode(connect.cert) } : {}),
    ...(connect.key ? { key: toNode(connect.key) } : {}),
    ...(connect.pfx ? { pfx: toNode(connect.pfx) } : {}),
    ...(connect.passphrase !== undefined ? { passphrase: connect.passphrase } : {}),
    ...(connect.ca
      ? { ca: Array.isArray(connect.ca) ? connect.ca.map(toNode) : toNode(connect.ca as TlsMaterial) }
      : {}),
  };
}

// An encrypted PEM private key, by its format (RFC 7468's PKCS#8 label, or the legacy OpenSSL header),
// not by OpenSSL's message: a wrong passphrase leaves garbage that fails AES-CBC's padding check
// ("bad decrypt") 255 times in 256, and the 256th time fails later, as a key OpenSSL cannot decode.
const ENCRYPTED_PEM_KEY = /-----BEGIN ENCRYPTED PRIVATE KEY-----|^Proc-Type:\s*4,\s*ENCRYPTED\s*$/m;

/** The built-ins the material is checked with (node:tls, node:crypto), loaded by the caller. */
export interface MaterialModules {
  tls: Pick<NodeTls, 'createSecureContext'>;
  crypto: Pick<typeof import('node:crypto'), 'createPrivateKey' | 'X509Certificate'>;
}

/** Why the passphrase cannot open an encrypted PEM key, whatever OpenSSL says; undefined when it can or the key is not one. */
function passphraseProblem(
  connect: NodeConnect,
  where: string,
  { crypto }: MaterialModules,
): OptionProblem | undefined {
  if (!connect.key || connect.pfx || !ENCRYPTED_PEM_KEY.test(connect.key.toString('latin1'))) return undefined;
  const option = `${where}.passphrase`;
  if (connect.passphrase === undefined)
    return { option, rule: `is missing: ${where}.key is an encrypted key; give the passphrase it was encrypted with` };
  try {
    crypto.createPrivateKey({ key: connect.key, format: 'pem', passphrase: connect.passphrase });
    return undefined;
  } catch {
    return {
      option,
      rule: `could not be used: it does not decrypt ${where}.key (a wrong passphrase, or a damaged key); give the passphrase the key was encrypted with`,
    };
  }
}

/** Whether `read` throws: a part of the material OpenSSL cannot read on its own. */
const unreadable = (read: () => unknown): boolean => {
  try {
    read();
    return false;
  } catch {
    return true;
  }
};

/**
 * Why the material cannot be used, as the option (the field by its path under `where`) and the rule; undefined
 * when a secure context builds from it. OpenSSL's own words and code are kept (they describe the problem and
 * carry no key material); a passphrase or a key is never in them. Synchronous: `lazyTlsFetch` runs it at
 * creation, with the built-ins `process.getBuiltinModule` gives.
 */
export function materialProblem(
  checked: ConnectOptions,
  where: string,
  modules: MaterialModules,
): (OptionProblem & { cause: unknown }) | undefined {
  const connect = nodeConnect(checked);
  try {
    modules.tls.createSecureContext(connect);
    return undefined;
  } catch (error) {
    const problem = passphraseProblem(connect, where, modules);
    if (problem) return { ...problem, cause: error };
    const message = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: unknown }).code;
    const openssl = `${message}${typeof code === 'string' ? ` (${code})` : ''}`;
    const at = (name: string) => `${where}.${name}`;
    if (connect.pfx)
      return /mac verify|bad decrypt|bad password|wrong password|pass ?phrase/i.test(message)
        ? {
            option: at('passphrase'),
            rule: `could not be used: it does not open ${at('pfx')} (${openssl}); give the passphrase the PKCS#12 file was exported with`,
            cause: error,
          }
        : {
            option: at('pfx'),
            rule: `could not be used: ${openssl}; give the PKCS#12 file's bytes as exported (openssl pkcs12 -info -in client.p12 reads it)`,
            cause: error,
          };
    if (/mismatch/i.test(message))
      return {
        option: at('key'),
        rule: `does not belong to ${at('cert')}: ${openssl}; give the private key of that certificate (openssl x509 -noout -pubkey -in client.crt and openssl pkey -pubout -in client.key print the same key)`,
        cause: error,
      };
    if (connect.key && connect.cert) {
      const keyUnreadable = unreadable(() =>
        modules.crypto.createPrivateKey({
          key: connect.key!,
          format: 'pem',
          ...(connect.passphrase !== undefined ? { passphrase: connect.passphrase } : {}),
        }),
      );
      const name = keyUnreadable ? 'key' : 'cert';
      const check = keyUnreadable ? 'openssl pkey -in client.key -noout' : 'openssl x509 -noout -in client.crt';
      return {
        option: at(name),
        rule: `could not be used: ${openssl}; give the ${keyUnreadable ? 'private key' : 'certificate'} file's PEM text as issued (${check} reads it)`,
        cause: error,
      };
    }
    return {
      option: at('ca'),
      rule: `could not be used: ${openssl}; give the authority's certificate in PEM`,
      cause: error,
    };
  }
}

/** Builds a secure context once, so a bad key, certificate or passphrase fails now, naming the field. */
async function checkMaterial(checked: ConnectOptions, where: string): Promise<void> {
  const modules: MaterialModules = {
    tls: (await importOptional('node:tls')) as NodeTls,
    crypto: (await importOptional('node:crypto')) as typeof import('node:crypto'),
  };
  const problem = materialProblem(checked, where, modules);
  if (problem) throw optionError({ option: problem.option, rule: problem.rule }, TypeError, problem.cause);
}

/** A code the socket saw gets its words from the same table as a code in the error. */
const describe = (found: TlsFailure | undefined): TlsFailure | undefined =>
  found && !found.reason ? (tlsFailure({ code: found.code }) ?? found) : found;

/** A fetch presenting the client certificate and/or trusting the authority of `checked` (from checkTlsOptions). */
export async function tlsFetchFor(checked: ConnectOptions, options: TlsFetchOptions = {}): Promise<TlsFetch> {
  const where = options.where ?? 'tls';
  await checkMaterial(checked, where);
  const connect = nodeConnect(checked);
  const undici = await loadUndici(where);
  const sockets = new SocketWatch();
  const connector = undici.buildConnector(connect);
  const agent = new undici.Agent({
    connect: (opts, callback) =>
      connector(opts, (error, socket) => {
        if (socket && 'getCertificate' in socket) sockets.watch(socket);
        // The callback's overloads want the two cases apart.
        if (error) callback(error, null);
        else callback(null, socket!);
      }),
  });
  const send = fromUrlInitFetch(options.fetch ?? (undici.fetch as unknown as UrlInitFetch), { dispatcher: agent });
  const tlsFetch: FetchLike = async (url, init) => {
    try {
      return await send(url, init);
    } catch (error) {
      const failure = tlsFailure(error) ?? describe(sockets.explain(error));
      if (failure) throw new TlsConnectionError(failure, new URL(url).host, error);
      throw error;
    }
  };
  return Object.assign(tlsFetch, { close: () => agent.close() });
}
