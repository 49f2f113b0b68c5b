// Breaking changes between two bundled specs, judged by api-smart-diff (OpenAPI 3.0 and 3.1, pure
// JavaScript, runs on Node 20), and the semver rule the README promises: a breaking change of the
// contract needs a new major version (for 0.x, a new minor, as npm's caret ranges read 0.x).
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { apiDiff } from 'api-smart-diff';
import { repoRoot } from './paths.mjs';

/** Where each release's bundled spec is committed, for clones without tags (CI, shallow, forks). */
export const RELEASES_DIR = 'releases';
export const baselineFile = (version) => join(RELEASES_DIR, `openapi-${version}.json`);

/**
 * The breaking changes from `before` to `after`, one per changed location, e.g.
 * `{ action: 'remove', path: 'paths//v2/.../properties/status' }`.
 */
export function breakingChanges(before, after) {
  // api-smart-diff resolves references inside the documents it is given: give it copies.
  return apiDiff(structuredClone(before), structuredClone(after))
    .filter((diff) => diff.type === 'breaking')
    .map((diff) => ({ action: diff.action, path: diff.path.join('/') }));
}

export function parseVersion(version) {
  const match = /^(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?$/.exec(version);
  if (!match) throw new Error(`"${version}" is not a semver version`);
  return match.slice(1, 4).map(Number);
}

export function compareVersions(a, b) {
  const [x, y] = [parseVersion(a), parseVersion(b)];
  for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

/** True when going from `from` to `to` is a major release: 1.4.0 -> 2.0.0, or 0.1.3 -> 0.2.0. */
export function isMajorBump(from, to) {
  const [a, b] = [parseVersion(from), parseVersion(to)];
  if (a[0] === 0 && b[0] === 0) return b[1] > a[1];
  return b[0] > a[0];
}

/** The verdict: fine when nothing breaks or the version says so; otherwise why not. */
export function verdict({ baselineVersion, currentVersion, breaking }) {
  if (breaking.length === 0) return { ok: true, reason: `no breaking change since v${baselineVersion}` };
  if (isMajorBump(baselineVersion, currentVersion)) {
    return {
      ok: true,
      reason: `${breaking.length} breaking change(s) since v${baselineVersion}, allowed: ${currentVersion} is a new major version`,
    };
  }
  return {
    ok: false,
    reason: `${breaking.length} breaking change(s) since v${baselineVersion}, but ${currentVersion} is not a new major version (${parseVersion(baselineVersion)[0] === 0 ? 'for 0.x, bump the minor' : 'bump the major'}, or make the change compatible)`,
  };
}

const git = (cwd, args) =>
  promisify(execFile)('git', args, { cwd, maxBuffer: 64 * 1024 * 1024 }).then(({ stdout }) => stdout);

/**
 * The last release's bundled spec: the highest tag `v<semver>` not above `version` (its
 * src/generated/openapi.json), else the highest committed releases/openapi-<version>.json.
 */
export async function findBaseline(root, version) {
  const tags = (await git(root, ['tag', '--list', 'v*']).catch(() => ''))
    .split('\n')
    .map((t) => t.trim())
    .filter((t) => /^v\d+\.\d+\.\d+$/.test(t) && compareVersions(t.slice(1), version) <= 0)
    .sort((a, b) => compareVersions(b.slice(1), a.slice(1)));
  if (tags[0]) {
    const spec = JSON.parse(await git(root, ['show', `${tags[0]}:src/generated/openapi.json`]));
    return { version: tags[0].slice(1), spec, source: `git tag ${tags[0]}` };
  }
  const dir = join(root, RELEASES_DIR);
  const files = existsSync(dir)
    ? readdirSync(dir)
        .map((f) => /^openapi-(\d+\.\d+\.\d+)\.json$/.exec(f)?.[1])
        .filter((v) => v && compareVersions(v, version) <= 0)
        .sort((a, b) => compareVersions(b, a))
    : [];
  if (files[0]) {
    return {
      version: files[0],
      spec: JSON.parse(readFileSync(join(root, baselineFile(files[0])), 'utf8')),
      source: `committed ${baselineFile(files[0])} (no release tag in this clone)`,
    };
  }
  return undefined;
}

/**
 * `npm run check:breaking` with its arguments (`--spec`, `--version`, `--baseline`,
 * `--baseline-version`): prints the verdict through `out` (the refusal without a baseline through
 * `err`) and returns the exit code, 0 or 1.
 */
export async function checkBreaking(args, { out = console.log, err = console.error } = {}) {
  const { values } = parseArgs({
    args,
    options: {
      spec: { type: 'string', default: join(repoRoot, 'src/generated/openapi.json') },
      version: { type: 'string' },
      baseline: { type: 'string' },
      'baseline-version': { type: 'string' },
    },
  });
  const readJson = async (path) => JSON.parse(await readFile(path, 'utf8'));
  const currentVersion = values.version ?? (await readJson(join(repoRoot, 'package.json'))).version;
  const current = await readJson(values.spec);

  const baseline = values.baseline
    ? {
        version: values['baseline-version'] ?? (await readJson(values.baseline)).info.version,
        spec: await readJson(values.baseline),
        source: values.baseline,
      }
    : await findBaseline(repoRoot, currentVersion);
  if (!baseline) {
    err(
      `check:breaking: no release to compare with: no tag v<version> and nothing in releases/. Release one with \`npm run release:tag\`.`,
    );
    return 1;
  }

  const breaking = breakingChanges(baseline.spec, current);
  const result = verdict({ baselineVersion: baseline.version, currentVersion, breaking });
  out(`check:breaking: ${currentVersion} against v${baseline.version} from ${baseline.source}`);
  for (const change of breaking.slice(0, 50)) out(`  breaking: ${change.action} ${change.path}`);
  if (breaking.length > 50) out(`  … and ${breaking.length - 50} more`);
  out(`${result.ok ? 'ok' : 'FAIL'}: ${result.reason}`);
  return result.ok ? 0 : 1;
}
