// What the build does with the generated code (src/generated/): it ships as code, readable like the
// rest of dist/. The response validators sit in a chunk of their own that only `validateResponses` and
// verify load (a dynamic import), so a client that checks no answer loads none of them, and a Worker's
// bundler finds no Node built-in module in them (they used to be a file read through node:module).
// One exception, for the CommonJS build only: its sandbox reads the part of the spec it needs from the
// spec the package ships (dist/generated/openapi.json) instead of carrying it again as code.
import { join } from 'node:path';
import { repoRoot } from './paths.mjs';

/**
 * esbuild plugin: in the CommonJS build, imports of src/generated/sandbox-spec.js read the shipped spec
 * (src/generated/sandbox-spec.ts is a part of it in the same shape). The CommonJS build runs where
 * there are files (Node's require, Jest); a Worker bundles the ES modules, which carry that part as code.
 */
export const sharedGenerated = {
  name: 'shared-generated',
  setup(build) {
    // tsup builds CommonJS as ES modules turned into CommonJS afterwards (for splitting): told by the extension.
    if (build.initialOptions.outExtension?.['.js'] !== '.cjs') return;
    build.onResolve({ filter: /[\\/]generated[\\/]sandbox-spec\.js$/ }, ({ path }) => ({
      path,
      namespace: 'shipped-sandbox-spec',
    }));
    build.onLoad({ filter: /.*/, namespace: 'shipped-sandbox-spec' }, () => ({
      contents: [
        "import { readBundledSpec } from './shipped-files.js';",
        'export const SANDBOX_SPEC = readBundledSpec();',
      ].join('\n'),
      resolveDir: join(repoRoot, 'src'),
      loader: 'js',
    }));
  },
};
