// The `tls` option as the client and clientCredentials take it, checked now, so a mistake in the
// configuration fails at creation with a BaasOptionError naming the field and what to do, before anything
// is sent: its shape (options.ts: a misspelt or unknown member, a key without its certificate), the
// runtime, and its material (agent.ts' materialProblem over node:tls and node:crypto, which
// `process.getBuiltinModule` gives synchronously: a passphrase that does not open the key or the pfx, a
// key of another certificate, PEM OpenSSL cannot read). The TLS fetch itself is built on undici (an
// optional peer, loaded asynchronously) on the first request; what fails only then (undici missing)
// fails that request, and every one after it, with a BaasNetworkError naming the field (`unusable` in fetch.ts).
import { materialProblem, type MaterialModules, type TlsFetch } from './agent.js';
import { builtinModule, requireTlsSupport } from './capability.js';
import { usableTlsFetch } from './fetch.js';
import { checkTlsOptions, type ConnectOptions, type TlsOptions } from './options.js';
import { optionError } from '../option-rules.js';

/** Where the TLS fetch will send: the option holding the URL (`baseUrl`, `tokenUrl`) and the function given it. */
export interface TlsTarget {
  /** The function the options were given to, e.g. `createBaasClient`. */
  where?: string | undefined;
  /** The option holding the URL, e.g. `baseUrl`. */
  option: string;
  url: URL;
}

/**
 * Refuses a `tls` for a plain http URL: a client certificate and a private authority are used only by
 * TLS, so over http they would be silently unused, the certificate never presented. No opt-in allows it:
 * `allowInsecureHttp` lets a bearer token or a client secret travel in clear, and says nothing of TLS; and
 * the redirect rule (src/transport/redirect.ts) follows no redirect to another origin, so an http URL
 * never reaches https within a call.
 */
export function refuseTlsOverHttp(where: string, target: TlsTarget | undefined): void {
  if (target === undefined || target.url.protocol !== 'http:') return;
  throw optionError({
    where: target.where,
    option: where,
    rule: `is never used with ${target.option} ${target.url.origin}: a client certificate and a ca are presented only over https, and ${target.option} uses plain http; give the https:// URL, or leave ${where} out`,
  });
}

/**
 * Refuses material no secure context can be built from (a passphrase that does not open the key or the
 * pfx, a key of another certificate), as a BaasOptionError naming the field and what to do, never a value.
 * The runtime has node:tls and node:crypto here: requireTlsSupport asked for them first.
 */
function refuseUnusableMaterial(tls: ConnectOptions, where: string, target: TlsTarget | undefined): void {
  const modules = {
    tls: builtinModule('node:tls'),
    crypto: builtinModule('node:crypto'),
  } as MaterialModules;
  const problem = materialProblem(tls, where, modules);
  if (problem)
    throw optionError({ where: target?.where, option: problem.option, rule: problem.rule }, TypeError, problem.cause);
}

export function lazyTlsFetch(tls: TlsOptions, where = 'tls', target?: TlsTarget): TlsFetch {
  // The shape, then the runtime: a misspelt member is the user's to fix wherever the code runs.
  const connect = checkTlsOptions(tls, where);
  refuseTlsOverHttp(where, target);
  // A runtime without node:tls (workerd) fails here, at creation, rather than on the first request.
  requireTlsSupport(where);
  // A copy, so the options cannot change between creation and the first request.
  const given = { ...tls };
  refuseUnusableMaterial(connect, where, target);
  let pending: Promise<TlsFetch> | undefined;
  const get = () => {
    pending ??= usableTlsFetch(given, where).catch((error: unknown) => {
      // A failed build is not kept: the next call reports it again.
      pending = undefined;
      throw error;
    });
    return pending;
  };
  const send = async (url: string, init: RequestInit): Promise<Response> => (await get())(url, init);
  return Object.assign(send, {
    async close() {
      const built = pending;
      pending = undefined;
      if (built) await built.then((f) => f.close()).catch(() => undefined);
    },
  });
}
