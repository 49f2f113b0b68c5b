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
const toNode = (value: TlsMaterial): NodeMaterial =>
  typeof value === 'string' || Buffer.isBuffer(value)
    ? value
    : Buffer.from(value.buffer, value.byteOffset, value.byteLength);

/** node:tls and undici take Buffers, not any Uint8Array. */
function nodeConnect(connect: ConnectOptions) {
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

/** Why the passphrase cannot open an encrypted PEM key, whatever OpenSSL says; undefined when it can or the key is not one. */
async function passphraseProblem(connect: ReturnType<typeof nodeConnect>, where: string): Promise<string | undefined> {
  if (!connect.key || connect.pfx || !ENCRYPTED_PEM_KEY.test(connect.key.toString('latin1'))) return undefined;
  if (connect.passphrase === undefined)
    return `${where}.passphrase is missing: ${where}.key is an encrypted key; give the passphrase it was encrypted with`;
  const crypto = (await importOptional('node:crypto')) as typeof import('node:crypto');
  try {
    crypto.createPrivateKey({ key: connect.key, format: 'pem', passphrase: connect.passphrase });
    return undefined;
  } catch {
    return `${where}.passphrase could not be used: it does not decrypt ${where}.key (a wrong passphrase, or a damaged key); give the passphrase the key was encrypted with`;
  }
}

/** Builds a secure context once, so a bad key, certificate or passphrase fails now, naming the field. */
async function checkMaterial(connect: ReturnType<typeof nodeConnect>, where: string): Promise<void> {
  const tls = (await importOptional('node:tls')) as NodeTls;
  try {
    tls.createSecureContext(connect);
  } catch (error) {
    const problem = await passphraseProblem(connect, where);
    if (problem) throw new TypeError(problem, { cause: error });
    const message = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: unknown }).code;
    let field = connect.pfx ? `${where}.pfx` : connect.cert ? `${where}.cert/${where}.key` : `${where}.ca`;
    if (/bad decrypt|mac verify|bad password|wrong password|interrupted or cancelled|pass ?phrase/i.test(message))
      field = `${where}.passphrase`;
    else if (/mismatch/i.test(message)) field = `${where}.key (it does not belong to ${where}.cert)`;
    // OpenSSL's own message describes the problem and carries no key material.
    throw new TypeError(`${field} could not be used: ${message}${typeof code === 'string' ? ` (${code})` : ''}`, {
      cause: error,
    });
  }
}

/** A code the socket saw gets its words from the same table as a code in the error. */
const describe = (found: TlsFailure | undefined): TlsFailure | undefined =>
  found && !found.reason ? (tlsFailure({ code: found.code }) ?? found) : found;

/** A fetch presenting the client certificate and/or trusting the authority of `checked` (from checkTlsOptions). */
export async function tlsFetchFor(checked: ConnectOptions, options: TlsFetchOptions = {}): Promise<TlsFetch> {
  const where = options.where ?? 'tls';
  const connect = nodeConnect(checked);
  await checkMaterial(connect, where);
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
