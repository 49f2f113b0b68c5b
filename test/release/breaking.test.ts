// The breaking-change check (npm run check:breaking) judges known changes right: a response member
// removed, a pattern narrowed and a required parameter added break the contract; a new optional
// response member does not. A break passes only with a new major version. The last release is found
// from its tag, else from the committed baseline of a clone without tags.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breakingChanges, checkBreaking, findBaseline, isMajorBump, verdict } from '../../scripts/lib/breaking.mjs';
import { repoRoot } from '../../scripts/lib/paths.mjs';

type Spec = Record<string, any>;
const spec = JSON.parse(await readFile(join(repoRoot, 'src/generated/openapi.json'), 'utf8')) as Spec;
const changed = (change: (s: Spec) => void): Spec => {
  const copy = structuredClone(spec);
  change(copy);
  return copy;
};

const CASES = {
  'a response member removed (UpdateResult.status)': changed((s) => {
    delete s.components.schemas.UpdateResult.properties.status;
  }),
  'a pattern narrowed (PhoneNumber: Brazilian numbers only)': changed((s) => {
    s.components.schemas.PhoneNumber.pattern = '^\\+55[0-9]{10,11}$';
  }),
  'a required parameter added (X-Branch header on list-keys)': changed((s) => {
    s.paths['/v2/api/pix/keys/list-keys'].get.parameters.push({
      name: 'X-Branch',
      in: 'header',
      required: true,
      schema: { type: 'string' },
    });
  }),
};
const COMPATIBLE = changed((s) => {
  s.components.schemas.UpdateResult.properties.nickname = { type: 'string', maxLength: 40 };
});

// What api-smart-diff finds for each known change, worked out once (0.2–0.3 s of CPU a comparison of the
// whole spec): the tests below ask for the same comparisons again.
const found = new Map<Spec, ReturnType<typeof breakingChanges>>();
const breaksOf = (after: Spec): ReturnType<typeof breakingChanges> => {
  if (!found.has(after)) found.set(after, breakingChanges(spec, after));
  return found.get(after)!;
};

describe('breakingChanges (api-smart-diff)', () => {
  it('finds none between the spec and itself', () => {
    expect(breakingChanges(spec, structuredClone(spec))).toEqual([]);
  });

  for (const [name, after] of Object.entries(CASES)) {
    it(`judges ${name} breaking`, () => {
      expect(breaksOf(after).length).toBeGreaterThan(0);
    });
  }

  it('judges a new optional response member compatible', () => {
    expect(breaksOf(COMPATIBLE)).toEqual([]);
  });

  it('names where each break is', () => {
    expect(breaksOf(CASES['a pattern narrowed (PhoneNumber: Brazilian numbers only)'])).toContainEqual({
      action: 'replace',
      path: 'components/schemas/PhoneNumber/pattern',
    });
  });
});

describe('the semver rule', () => {
  it('lets a break through only with a new major (for 0.x: a new minor)', () => {
    const breaking = [{ action: 'remove', path: 'x' }];
    expect(verdict({ baselineVersion: '1.4.0', currentVersion: '1.5.0', breaking }).ok).toBe(false);
    expect(verdict({ baselineVersion: '1.4.0', currentVersion: '2.0.0', breaking }).ok).toBe(true);
    expect(verdict({ baselineVersion: '0.1.0', currentVersion: '0.1.1', breaking }).ok).toBe(false);
    expect(verdict({ baselineVersion: '0.1.0', currentVersion: '0.2.0', breaking }).ok).toBe(true);
    expect(verdict({ baselineVersion: '1.4.0', currentVersion: '1.4.1', breaking: [] }).ok).toBe(true);
    expect(isMajorBump('0.9.0', '1.0.0')).toBe(true);
  });
});

describe('npm run check:breaking', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baas-breaking-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** check:breaking in process (checkBreaking, the script's whole body), its printed lines joined. */
  async function check(after: Spec, version: string) {
    const file = join(dir, `after-${Math.random().toString(36).slice(2)}.json`);
    await writeFile(file, JSON.stringify(after));
    const lines: string[] = [];
    const code = await checkBreaking(
      [
        '--spec',
        file,
        '--version',
        version,
        '--baseline',
        join(repoRoot, 'src/generated/openapi.json'),
        '--baseline-version',
        '1.0.0',
      ],
      { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) },
    );
    return { code, stdout: lines.join('\n') };
  }

  it("is what the script runs: its exit status and output are checkBreaking's", async () => {
    const file = join(dir, 'broken.json');
    await writeFile(file, JSON.stringify(CASES['a response member removed (UpdateResult.status)']));
    const args = ['--spec', file, '--version', '1.1.0', '--baseline', join(repoRoot, 'src/generated/openapi.json')];
    const run = await promisify(execFile)(process.execPath, [
      join(repoRoot, 'scripts/check-breaking.mjs'),
      ...args,
      '--baseline-version',
      '1.0.0',
    ]).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
    expect(run.code).toBe(1);
    const lines: string[] = [];
    expect(
      await checkBreaking([...args, '--baseline-version', '1.0.0'], { out: (line: string) => lines.push(line) }),
    ).toBe(1);
    expect(run.stdout).toBe(`${lines.join('\n')}\n`);
  });

  it('fails on each known break without a new major, and says why', async () => {
    // The whole check for one of them; for each, the verdict on what the comparison above found (the
    // check's own comparison, the same, would cost a second of CPU more).
    const { code, stdout } = await check(CASES['a pattern narrowed (PhoneNumber: Brazilian numbers only)'], '1.1.0');
    expect(code).toBe(1);
    expect(stdout).toMatch(/FAIL: \d+ breaking change\(s\) since v1\.0\.0, but 1\.1\.0 is not a new major version/);
    for (const [name, after] of Object.entries(CASES))
      expect(verdict({ baselineVersion: '1.0.0', currentVersion: '1.1.0', breaking: breaksOf(after) }).ok, name).toBe(
        false,
      );
  });

  it('passes a break with a new major, and a compatible change without one', async () => {
    expect((await check(CASES['a response member removed (UpdateResult.status)'], '2.0.0')).code).toBe(0);
    const compatible = await check(COMPATIBLE, '1.0.1');
    expect(compatible.code).toBe(0);
    expect(compatible.stdout).toMatch(/ok: no breaking change since v1\.0\.0/);
  });

  it('compares with the release tag, and without tags with the committed baseline', async () => {
    const repo = join(dir, 'repo');
    await mkdir(join(repo, 'src/generated'), { recursive: true });
    await mkdir(join(repo, 'releases'), { recursive: true });
    const git = (...args: string[]) =>
      promisify(execFile)('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo });
    await git('init', '-q');
    await writeFile(join(repo, 'releases/openapi-0.1.0.json'), JSON.stringify({ info: { version: 'baseline-file' } }));
    await writeFile(join(repo, 'src/generated/openapi.json'), JSON.stringify({ info: { version: 'tagged' } }));
    await git('add', '-A');
    await git('commit', '-qm', 'release');
    expect(await findBaseline(repo, '0.1.0')).toMatchObject({
      version: '0.1.0',
      spec: { info: { version: 'baseline-file' } },
      source: expect.stringMatching(/committed releases\/openapi-0\.1\.0\.json/),
    });
    await git('tag', 'v0.1.0');
    await git('tag', 'v0.3.0');
    // The highest release not above the version being checked.
    expect(await findBaseline(repo, '0.2.0')).toMatchObject({
      version: '0.1.0',
      spec: { info: { version: 'tagged' } },
      source: 'git tag v0.1.0',
    });
    expect(await findBaseline(repo, '0.0.9')).toBeUndefined();
  });
});
