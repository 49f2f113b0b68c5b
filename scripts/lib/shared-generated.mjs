// What the build does with the generated Ajv validators (src/generated/*validators.js): machine-written
// code nobody reads in dist/, and the largest part of the package.
// - The response validators (loaded only by `validateResponses` and verify) become one minified
//   CommonJS file, dist/generated/response-validators.cjs, that the ESM and the CommonJS code both load
//   (Node's `require` reads it from either, Jest included), instead of a 216 kB chunk per format.
// - The request validators, in the client's entry, are minified as they are loaded; so is the
//   sandbox's SHA-256 and HMAC (src/sandbox/digests.ts), bundled with the part of @noble/hashes it
//   uses (10 kB less in each format than bundled as it is); the package's own code stays readable.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build as esbuild, transform } from 'esbuild';
import { repoRoot } from './paths.mjs';

const RESPONSE_VALIDATORS = join(repoRoot, 'src', 'generated', 'response-validators.js');
const DIGESTS = join(repoRoot, 'src', 'sandbox', 'digests.ts');
export const RESPONSE_VALIDATORS_FILE = 'response-validators.cjs';

/** Writes `<outDir>/generated/response-validators.cjs`. */
export async function buildResponseValidators(outDir) {
  await esbuild({
    entryPoints: [RESPONSE_VALIDATORS],
    outfile: join(outDir, 'generated', RESPONSE_VALIDATORS_FILE),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    logLevel: 'silent',
  });
}

/**
 * esbuild plugin: imports of the response validators read the shared file (and, in CommonJS, the
 * sandbox's part of the spec); the request validators and the sandbox's digests are minified.
 */
export const sharedGenerated = {
  name: 'shared-generated',
  setup(build) {
    build.onResolve({ filter: /[\\/]generated[\\/]response-validators\.js$/ }, () => ({
      path: RESPONSE_VALIDATORS,
      namespace: 'shared-response-validators',
    }));
    // The module stands in for src/generated/response-validators.js: it exports what src/ imports from
    // it (a name it does not export fails the build), found as src/shipped-files.ts finds the spec.
    // The CommonJS build runs where there are files (Node's require, Jest; a Worker bundles the ES
    // modules), so its sandbox reads the spec it ships, of which src/generated/sandbox-spec.ts is a part
    // in the same shape, rather than carrying that part again (9 kB).
    // tsup builds CommonJS as ES modules turned into CommonJS afterwards (for splitting): told by the extension.
    if (build.initialOptions.outExtension?.['.js'] === '.cjs') {
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
    }
    build.onLoad({ filter: /.*/, namespace: 'shared-response-validators' }, () => ({
      contents: [
        "import { createRequire } from 'node:module';",
        "import { shippedFile } from './shipped-files.js';",
        `export const { responseContract } = createRequire(import.meta.url)(shippedFile('${RESPONSE_VALIDATORS_FILE}'));`,
      ].join('\n'),
      resolveDir: join(repoRoot, 'src'),
      loader: 'js',
    }));
    build.onLoad({ filter: /[\\/]src[\\/]generated[\\/]validators\.js$/ }, async ({ path }) => {
      const { code } = await transform(await readFile(path, 'utf8'), {
        loader: 'js',
        format: 'esm',
        minify: true,
        target: 'node20',
        sourcefile: path,
      });
      return { contents: code, loader: 'js' };
    });
    // Bundled on its own first, so that only the part of @noble/hashes it exports is there to minify.
    build.onLoad({ filter: /[\\/]src[\\/]sandbox[\\/]digests\.ts$/ }, async ({ path }) => {
      if (path !== DIGESTS) return undefined;
      const { outputFiles } = await esbuild({
        entryPoints: [path],
        bundle: true,
        format: 'esm',
        platform: 'neutral',
        target: 'node20',
        // Not minifySyntax: tsup's CommonJS pass (sucrase) breaks on the class fields of a constructor
        // whose super() call is joined to the next statements by commas.
        minifyWhitespace: true,
        minifyIdentifiers: true,
        write: false,
        logLevel: 'silent',
      });
      return { contents: outputFiles[0].text, loader: 'js' };
    });
  },
};
