// What the build does with the generated Ajv validators (src/generated/*validators.js): machine-written
// code nobody reads in dist/, and the largest part of the package.
// - The response validators (loaded only by `validateResponses` and verify) become one minified
//   CommonJS file, dist/generated/response-validators.cjs, that the ESM and the CommonJS code both load
//   (Node's `require` reads it from either, Jest included), instead of a 216 kB chunk per format.
// - The request validators, in the client's entry, are minified as they are loaded; the package's own
//   code stays readable.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build, transform } from 'esbuild';
import { repoRoot } from './paths.mjs';

const RESPONSE_VALIDATORS = join(repoRoot, 'src', 'generated', 'response-validators.js');
export const RESPONSE_VALIDATORS_FILE = 'response-validators.cjs';

/** Writes `<outDir>/generated/response-validators.cjs`. */
export async function buildResponseValidators(outDir) {
  await build({
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

/** esbuild plugin: imports of the response validators read the shared file; the request validators are minified. */
export const sharedGenerated = {
  name: 'shared-generated',
  setup(build) {
    build.onResolve({ filter: /[\\/]generated[\\/]response-validators\.js$/ }, () => ({
      path: RESPONSE_VALIDATORS,
      namespace: 'shared-response-validators',
    }));
    // The module stands in for src/generated/response-validators.js: it exports what src/ imports from
    // it (a name it does not export fails the build), found as src/shipped-files.ts finds the spec.
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
  },
};
