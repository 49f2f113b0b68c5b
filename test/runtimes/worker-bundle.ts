// A Worker as wrangler makes one: the entry and what it imports (the installed package included)
// bundled by esbuild into one ES module, Node's built-in modules left to the runtime as `node:*`
// (workerd provides them: nodejs_compat is the default from compatibility date 2026-08-04); and the
// workerd configuration that serves it on 127.0.0.1 with outgoing requests allowed to loopback only.
import { writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { basename, join } from 'node:path';
import { build, type Plugin } from 'esbuild';

/** Fixed, so a new workerd changes nothing it was not asked to; at most the binary's own date. */
export const COMPATIBILITY_DATE = '2026-11-01';

const BUILTINS = new Set(builtinModules);

const nodeBuiltins: Plugin = {
  name: 'node-builtins',
  setup(build) {
    build.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, ({ path }) => {
      const name = path.replace(/^node:/, '');
      return BUILTINS.has(name) ? { path: `node:${name}`, external: true } : undefined;
    });
  },
};

/** Bundles `entry` (resolving packages from its folder) into `outfile`. */
export async function bundleWorker(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    plugins: [nodeBuiltins],
    logLevel: 'silent',
  });
}

/**
 * Writes `<dir>/<name>.capnp`: the Worker module `script` (a path in dir) on 127.0.0.1, port chosen by
 * workerd, at `compatibilityDate` (an earlier one than 2024-09-23 has no Node.js APIs at all) with
 * `compatibilityFlags` (e.g. `nodejs_compat`).
 */
export async function writeWorkerdConfig(
  dir: string,
  name: string,
  script: string,
  compatibilityDate = COMPATIBILITY_DATE,
  compatibilityFlags: string[] = [],
): Promise<string> {
  const config = join(dir, `${name}.capnp`);
  await writeFile(
    config,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "${basename(script)}", esModule = embed "${script}")],
  compatibilityDate = "${compatibilityDate}",
  compatibilityFlags = [${compatibilityFlags.map((flag) => JSON.stringify(flag)).join(', ')}],
  globalOutbound = "loopback",
);
`,
  );
  return config;
}
