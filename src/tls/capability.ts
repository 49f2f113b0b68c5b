// Whether this runtime can present a client certificate the way the `tls` option does: node:tls secure
// contexts, and the undici package's Agent as fetch's dispatcher. Node and Deno can. Cloudflare's workerd
// cannot (its node:tls makes no native context; a Worker presents a certificate through an mTLS
// binding's fetch), nor can Bun (it answers `undici` with a built-in of its own whose Agent is a shell,
// so the certificate and the authority would be silently ignored). Asked when a client or a token
// source is created, so such a runtime fails there, not at the first request. Detected by what the
// runtime has, not by its name.
import { optionError } from '../option-rules.js';

/** The part of node:tls asked for. */
interface SecureContexts {
  createSecureContext?: (options?: object) => unknown;
}

/** How the built-in module is reached; `process.getBuiltinModule` (Node 20.16+, Bun, Deno) is synchronous. */
export type BuiltinLoader = (id: string) => unknown;

const runtimeLoader = (): BuiltinLoader | null => {
  const runtime = (globalThis as { process?: { getBuiltinModule?: unknown } }).process;
  const load = runtime?.getBuiltinModule;
  return typeof load === 'function' ? (id) => (load as BuiltinLoader).call(runtime, id) : null;
};

/** A built-in module of this runtime, synchronously (undefined without `process.getBuiltinModule`). */
export function builtinModule(id: string): unknown {
  return runtimeLoader()?.(id);
}

/** What this runtime lacks for `tls`, in words for an error; undefined when it has it. */
export function tlsLimitation(load: BuiltinLoader | null = runtimeLoader()): string | undefined {
  if (load === null) return 'this runtime has no Node.js built-in modules (no node:tls)';
  let tls: SecureContexts | undefined;
  try {
    tls = load('node:tls') as SecureContexts | undefined;
  } catch {
    tls = undefined;
  }
  if (typeof tls?.createSecureContext !== 'function') return "this runtime's node:tls has no createSecureContext";
  let made: { context?: unknown } | undefined;
  try {
    // An empty context: cheap, and loads no certificate.
    made = tls.createSecureContext({}) as { context?: unknown } | undefined;
  } catch {
    return "this runtime's node:tls cannot make a secure context";
  }
  // Node, Bun and Deno hold a native context there; workerd's node:tls returns a shell without one,
  // and its sockets cannot present a client certificate.
  if (typeof made?.context !== 'object' || made.context === null)
    return "this runtime's node:tls makes no native secure context (no client certificates), as on Cloudflare Workers";
  // Node has no built-in of that name: the package is loaded. A runtime that has one uses it instead.
  let ownUndici: unknown;
  try {
    // Sends outside the transport: nothing is sent; this only asks whether the runtime answers the name.
    ownUndici = load('undici');
  } catch {
    ownUndici = undefined;
  }
  if (ownUndici !== undefined && ownUndici !== null)
    return (
      'this runtime answers `undici` with a built-in of its own that ignores the dispatcher ' +
      'presenting the certificate, as Bun does'
    );
  return undefined;
}

/** Throws at creation when the runtime cannot present a client certificate; `where` names the option. */
export function requireTlsSupport(where: string, lacking: string | undefined = tlsLimitation()): void {
  if (lacking === undefined) return;
  throw optionError({
    option: where,
    rule:
      `needs node:tls and the undici package, and ${lacking}: ` +
      "give the client a fetch that presents the certificate instead (a Workers mTLS binding's fetch, say)",
  });
}
