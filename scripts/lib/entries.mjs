// THE list of the package's entry points: subpath -> source file. Everything else is derived from it:
// the build (scripts/build.mjs), package.json's `exports` and `typesVersions` (`npm run sync:exports`
// writes them; test/package/entries.test.ts fails when they are out of step), and the attw and
// consumer tests. Adding an entry point is one line here, then `npm run sync:exports`.
export const ENTRIES = {
  '.': 'src/index.ts',
  './testing': 'src/testing/index.ts',
  './sandbox': 'src/sandbox/index.ts',
  './types': 'src/types.ts',
};

/** The entry of the contract's named types (aliases of the generated ones): `baas-pix-contract/types`. */
export const TYPES_ENTRY = './types';

/** Files of the spec shipped as they are, each its own export (read as files, not imported as code). */
export const SPEC_FILES = ['openapi.yaml', 'openapi.json'];

/** The command line: ESM only (a bin is run, never imported), not an export. */
export const CLI_ENTRY = 'src/cli/index.ts';
/** Its output name under dist/, built in the same pass as the ESM entries. */
export const CLI_OUTPUT = 'cli';
export const CLI_BIN = `./dist/${CLI_OUTPUT}.js`;

/** `./testing` -> `testing/index`; `.` -> `index`: the output name without extension, under dist/. */
export const outputName = (subpath) => (subpath === '.' ? 'index' : `${subpath.slice(2)}/index`);

/** package.json's `exports`, `typesVersions` and top-level fields, derived from ENTRIES. */
export function manifestFields() {
  const exports = {};
  const typesVersions = {};
  for (const subpath of Object.keys(ENTRIES)) {
    const name = outputName(subpath);
    exports[subpath] = {
      import: { types: `./dist/${name}.d.ts`, default: `./dist/${name}.js` },
      require: { types: `./dist/${name}.d.cts`, default: `./dist/${name}.cjs` },
    };
    // TypeScript's old `node10` resolution (`"module": "commonjs"` without moduleResolution) ignores
    // `exports`; typesVersions points it at the CommonJS declarations of each subpath.
    if (subpath !== '.') typesVersions[subpath.slice(2)] = [`./dist/${name}.d.cts`];
  }
  for (const file of SPEC_FILES) {
    exports[`./${file}`] = `./dist/generated/${file}`;
    if (file.endsWith('.json')) typesVersions[file] = [`./dist/generated/${file}`];
  }
  exports['./package.json'] = './package.json';
  return {
    main: './dist/index.cjs',
    module: './dist/index.js',
    types: './dist/index.d.cts',
    exports,
    typesVersions: { '*': typesVersions },
    bin: { 'baas-pix-contract': CLI_BIN },
  };
}
