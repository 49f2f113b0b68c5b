// Files the package ships beside its code, in generated/: src/generated/ in the repository,
// dist/generated/ once built. The bundled spec is read from there rather than bundled into the code of
// each format, and the build makes the response validators one CommonJS file there that both formats
// load (scripts/lib/shared-generated.mjs). The code asking may land in dist/, in an entry's folder
// (dist/sandbox/) or in a shared chunk, so the nearest `generated/` above this module is the one, not
// a fixed relative path.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// import.meta.url: in the CommonJS build the bundler (tsup, shims on) replaces it with this file's URL.
const here = dirname(fileURLToPath(import.meta.url));

/** The path of `generated/<name>` in `start` or the nearest folder above it that has one. */
export function findGenerated(start: string, name: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, 'generated', name);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir)
      throw new Error(`generated/${name} is missing above ${start}: the package is incomplete, reinstall it`);
  }
}

/** The path of `generated/<name>` nearest above this module. */
export const shippedFile = (name: string): string => findGenerated(here, name);

let parsed: unknown;

/** The bundled spec (generated/openapi.json), parsed once per process. String() of the bytes reads UTF-8. */
export const readBundledSpec = (): unknown =>
  (parsed ??= JSON.parse(String(readFileSync(shippedFile('openapi.json')))));
