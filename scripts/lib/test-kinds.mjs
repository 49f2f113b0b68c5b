// Which vitest project of `npm test` a test file belongs to, decided from what the file loads, never
// from a list of names (TESTING.md, "Two projects"):
//
// - **prism-isolated**: something it loads reads the run's Prism mock and something mocks a module or
//   resets the registry (both rules below): one fresh fork per file, and the run's Prism.
// - **prism**: something it loads reads the run's Prism mock (vitest's inject of "mockUrl", as test/support/mock.ts
//   does). Those files get the one Prism of the run, started by that project's global setup, and only
//   when at least one of them runs; forks sharing one module graph per fork, under the process
//   project's guard. A module mock in a shared graph would outlive its file (the mocked module stays
//   evaluated for the fork's next files, and a module a previous file evaluated is not mocked again),
//   hence prism-isolated.
// - **isolated**: something it loads mocks a module or resets the module registry (`vi.mock`,
//   `vi.doMock`, `vi.resetModules`), or a test-side file of it (under test/) starts a real Prism with
//   `startMock(`, which installs its exit hooks in the calling process on the first start (by design:
//   test/testing/mock-hooks.test.ts): it needs a process and a module graph of its own, each file in a
//   fresh fork.
// - **process**: something it loads names one of Node's modules for child processes, threads or sockets
//   (PROCESS_MODULES). Forks that share one module graph per fork, like pure's threads; the project's
//   setup file (test/support/process-setup.ts) fails a file that leaves global state behind.
// - **pure**: everything else. Threads sharing one module graph, no per-file isolation; the project's
//   setup file (test/support/pure-setup.ts) makes starting a process or listening on a socket throw,
//   and fails a file that leaves global state behind.
//
// "Something it loads" is the file, every file of the repository it imports (relative specifiers and
// `import()` of a literal, type-only imports left out), and every package those import, with the
// packages' own files and dependencies (vitest, the runner, left out). Specifiers are read with
// es-module-lexer; a file it cannot lex (TypeScript's `x! / y` reads as a regular expression to it) is
// read with a plain pattern for `from '…'`, `import '…'`, `import('…')` and `require('…')`.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { init, parse } from 'es-module-lexer';

export const PROCESS_MODULES = [
  'child_process',
  'cluster',
  'worker_threads',
  'net',
  'tls',
  'dgram',
  'http',
  'https',
  'http2',
];
const PROCESS_MODULE = new RegExp(`^(node:)?(${PROCESS_MODULES.join('|')})$`);
/** The one way a test reads the run's Prism mock. */
const READS_PRISM = /\binject\(\s*['"]mockUrl['"]\s*\)/;
/** A module mock, or a fresh module registry, needs a module graph of its own. */
const MOCKS_MODULE = /\bvi\.((do)?[mM]ock|resetModules)\(/;
/** startMock installs process-wide exit hooks on its first start: a test that starts one needs a process of its own. */
const STARTS_MOCK = /\bstartMock\(/;
/** The runner itself: every test imports it, and it starts the workers. */
const RUNNER = new Set(['vitest']);
const BUILTIN = new Set(builtinModules);

await init;

const TYPE_BEFORE = /(\btypeof|\bas|[:<|&])\s*$/;
const TYPE_AFTER = /^\)\.[A-Z]/;
const PATTERN = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;

/** The runtime specifiers of a source text, `import()` of a literal included. */
function specifiersOf(text) {
  let imports;
  try {
    [imports] = parse(text);
  } catch {
    return [...text.matchAll(PATTERN)].map((m) => m[1]);
  }
  const found = [];
  for (const i of imports) {
    if (i.n === undefined) continue;
    if (i.d === -1 && /^(import|export)\s+type\b/.test(text.slice(i.ss, i.se))) continue;
    // A type's `import('…')`: `typeof import('undici')`, `x as import('node:http').Server`, `: import('x').T`.
    if (
      i.d > -1 &&
      (TYPE_BEFORE.test(text.slice(Math.max(0, i.ss - 12), i.ss)) || TYPE_AFTER.test(text.slice(i.se, i.se + 3)))
    )
      continue;
    found.push(i.n);
  }
  return found;
}

/** A relative specifier as the file it names (`./x.js` is `./x.ts` in the sources). */
function resolveRelative(from, specifier) {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, base.replace(/\.(m|c)?js$/, '.$1ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}

const packageName = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** The folder of the package a file of `from` would load for `name`, or undefined. */
function packageFolder(from, name) {
  let dir = dirname(from);
  for (;;) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** The first match of `conditions` in a package.json `exports` value. */
function exportTarget(value, conditions) {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const target = exportTarget(item, conditions);
      if (target) return target;
    }
    return undefined;
  }
  if (value && typeof value === 'object')
    for (const [key, inner] of Object.entries(value))
      if (conditions.includes(key)) {
        const target = exportTarget(inner, conditions);
        if (target) return target;
      }
  return undefined;
}

const CONDITIONS = ['node', 'import', 'module', 'require', 'default'];
const FILE_SUFFIXES = ['', '.js', '.mjs', '.cjs', '.json', '/index.js', '/index.mjs', '/index.cjs'];
const existingFile = (base) =>
  FILE_SUFFIXES.map((suffix) => base + suffix).find((file) => existsSync(file) && statSync(file).isFile());

/** The file Node loads for a bare specifier from `from` (import conditions first), or undefined. */
function resolvePackage(from, specifier) {
  const name = packageName(specifier);
  const folder = packageFolder(from, name);
  if (!folder) return undefined;
  const subpath = `.${specifier.slice(name.length)}`;
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  if (manifest.exports !== undefined) {
    const exportsMap =
      typeof manifest.exports === 'string' ||
      Array.isArray(manifest.exports) ||
      !Object.keys(manifest.exports)[0]?.startsWith('.')
        ? { '.': manifest.exports }
        : manifest.exports;
    let target = exportsMap[subpath] !== undefined ? exportTarget(exportsMap[subpath], CONDITIONS) : undefined;
    if (target === undefined)
      for (const [key, value] of Object.entries(exportsMap)) {
        const star = key.indexOf('*');
        if (star === -1 || !subpath.startsWith(key.slice(0, star)) || !subpath.endsWith(key.slice(star + 1))) continue;
        const matched = subpath.slice(star, subpath.length - (key.length - star - 1));
        target = exportTarget(value, CONDITIONS)?.replaceAll('*', matched);
        if (target) break;
      }
    return target === undefined ? undefined : existingFile(join(folder, target));
  }
  if (subpath !== '.') return existingFile(join(folder, subpath));
  return existingFile(join(folder, manifest.module ?? manifest.main ?? 'index.js'));
}

const REQUIRE = /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g;

export function createClassifier(root) {
  const files = new Map();
  /** @type {Map<string, string | undefined>} */
  const packages = new Map();

  /** The first process module a package file (with all it loads) names, or undefined. */
  function packageReason(entry) {
    if (packages.has(entry)) return packages.get(entry);
    const seen = new Set([entry]);
    const queue = [entry];
    let reason;
    while (queue.length > 0 && !reason) {
      const file = queue.shift();
      if (!/\.(c|m)?js$/.test(file)) continue;
      const text = readFileSync(file, 'utf8');
      for (const specifier of [...specifiersOf(text), ...[...text.matchAll(REQUIRE)].map((m) => m[1])]) {
        if (PROCESS_MODULE.test(specifier)) {
          reason = `${relative(root, file)} imports ${specifier}`;
          break;
        }
        if (specifier.startsWith('node:') || BUILTIN.has(specifier) || /^[a-z]+:/.test(specifier)) continue;
        if (!specifier.startsWith('.') && RUNNER.has(packageName(specifier))) continue;
        const next = specifier.startsWith('.')
          ? existingFile(resolve(dirname(file), specifier))
          : resolvePackage(file, specifier);
        if (next && !seen.has(next)) seen.add(next) && queue.push(next);
      }
    }
    packages.set(entry, reason);
    return reason;
  }

  /** What one file itself shows: `{ process, prism, files, packages }`, read once. */
  function facts(file) {
    let found = files.get(file);
    if (found) return found;
    const text = readFileSync(file, 'utf8');
    const here = relative(root, file);
    found = {
      process: undefined,
      isolated: MOCKS_MODULE.exec(text)?.[0] ?? (here.startsWith('test/') ? STARTS_MOCK.exec(text)?.[0] : undefined),
      prism: READS_PRISM.test(text) ? here : undefined,
      files: [],
      packages: [],
    };
    for (const specifier of specifiersOf(text)) {
      if (PROCESS_MODULE.test(specifier)) found.process ??= `${here} imports ${specifier}`;
      else if (specifier.startsWith('.')) {
        const target = resolveRelative(file, specifier);
        if (target && !target.includes(`${sep}node_modules${sep}`)) found.files.push(target);
      } else if (!specifier.startsWith('node:') && !BUILTIN.has(specifier) && !/^[a-z]+:/.test(specifier)) {
        const name = packageName(specifier);
        if (!RUNNER.has(name)) found.packages.push(specifier);
      }
    }
    files.set(file, found);
    return found;
  }

  /** The reasons of a file and of everything it loads. */
  function reasonsOf(start) {
    const reasons = { process: undefined, isolated: undefined, prism: undefined };
    const seen = new Set([start]);
    const queue = [start];
    while (queue.length > 0 && !(reasons.process && reasons.isolated && reasons.prism)) {
      const file = queue.shift();
      const found = facts(file);
      reasons.prism ??= found.prism;
      reasons.process ??= found.process;
      if (found.isolated) reasons.isolated ??= `${relative(root, file)} calls ${found.isolated.slice(0, -1)}()`;
      for (const specifier of found.packages) {
        if (reasons.process) break;
        const entry = resolvePackage(file, specifier);
        const inner = entry && packageReason(entry);
        if (inner) reasons.process = `${relative(root, file)} imports ${specifier} (${inner})`;
      }
      for (const next of found.files) if (!seen.has(next)) seen.add(next) && queue.push(next);
    }
    return reasons;
  }

  /** `{ project, reason }` for one test file (a path relative to root or absolute). */
  return function classify(file) {
    const reasons = reasonsOf(resolve(root, file));
    if (reasons.prism && reasons.isolated)
      return {
        project: 'prism-isolated',
        reason: `${reasons.prism} reads the run's Prism mock and ${reasons.isolated}`,
      };
    if (reasons.prism) return { project: 'prism', reason: `${reasons.prism} reads the run's Prism mock` };
    if (reasons.isolated) return { project: 'isolated', reason: reasons.isolated };
    if (reasons.process) return { project: 'process', reason: reasons.process };
    return { project: 'pure', reason: 'loads no process, thread or socket module and no Prism' };
  };
}

/**
 * What the classification of root's test files reads, as one hash: the name, size and modification
 * time of every file under test/, src/ and scripts/, of the lock file (the packages' files change only
 * with it) and of this module. The same hash is the same classification.
 */
function inputsHash(root) {
  const hash = createHash('sha256');
  for (const top of ['test', 'src', 'scripts']) {
    const names = readdirSync(join(root, top), { recursive: true })
      .map(String)
      .filter((name) => !name.split(sep).includes('node_modules'))
      .sort();
    for (const name of names) {
      const stat = statSync(join(root, top, name));
      if (stat.isFile()) hash.update(`${top}/${name}\0${stat.size}\0${stat.mtimeMs}\n`);
    }
  }
  for (const file of [join(root, 'package-lock.json'), new URL(import.meta.url).pathname]) {
    const stat = existsSync(file) ? statSync(file) : undefined;
    hash.update(`${file}\0${stat?.size}\0${stat?.mtimeMs}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Every test file of `npm test` under root/test, relative to root, sorted, by project. The projects are
 * kept in node_modules/.cache/baas-pix-contract/test-kinds.json beside the hash of what they were read
 * from (inputsHash): vitest loads its config at every run, and reading every test file's imports, the
 * packages' included, is 0.8–1.3 s of CPU that an unchanged tree need not pay again.
 */
export function testProjects(root, isTest = (name) => name.endsWith('.test.ts') && !name.endsWith('.matrix.test.ts')) {
  const names = readdirSync(join(root, 'test'), { recursive: true })
    .map((name) => `test/${String(name).split(sep).join('/')}`)
    .filter((name) => isTest(name) && !name.includes('/node_modules/'))
    .sort();
  const cacheDir = join(root, 'node_modules', '.cache', 'baas-pix-contract');
  const cacheFile = join(cacheDir, 'test-kinds.json');
  const inputs = inputsHash(root);
  let known = {};
  try {
    const cached = JSON.parse(readFileSync(cacheFile, 'utf8'));
    if (cached.inputs === inputs) known = cached.projects;
  } catch {
    // No cache yet, or an unreadable one: classify from the files.
  }
  let classify;
  let added = false;
  const projects = { pure: [], process: [], isolated: [], prism: [], 'prism-isolated': [] };
  for (const name of names) {
    if (!Object.hasOwn(projects, known[name])) {
      classify ??= createClassifier(root);
      known[name] = classify(name).project;
      added = true;
    }
    projects[known[name]].push(name);
  }
  if (added && existsSync(join(root, 'node_modules')))
    try {
      mkdirSync(cacheDir, { recursive: true });
      // Written whole, then renamed: a run that reads it meanwhile sees the old file or the new one.
      const temporary = `${cacheFile}.${process.pid}`;
      writeFileSync(temporary, JSON.stringify({ inputs, projects: known }));
      renameSync(temporary, cacheFile);
    } catch {
      // A cache that cannot be written costs the next run the classification, nothing else.
    }
  return projects;
}

// `node scripts/lib/test-kinds.mjs [file…]`: each file's project and why.
if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');
  const classify = createClassifier(root);
  const args = process.argv.slice(2);
  const names = args.length ? args : Object.values(testProjects(root)).flat().sort();
  for (const name of names) {
    const { project, reason } = classify(name);
    console.log(`${project.padEnd(7)} ${name}  (${reason})`);
  }
}
