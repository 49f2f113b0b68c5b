// Security review: Spectral's OWASP API Security ruleset over the bundled spec reports nothing, and
// the rules still fire on a copy of the spec that breaks them (so a zero is not a ruleset that
// checks nothing).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';

interface SpectralResult {
  code: string;
  message: string;
  severity: number;
  path: string[];
}

const spectralBin = join(repoRoot, 'node_modules', '.bin', 'spectral');

/** Runs `spectral lint` and returns every result (errors, warnings, infos, hints). */
function spectral(document: string, ruleset: string, outDir: string): Promise<SpectralResult[]> {
  const out = join(outDir, `spectral-${Math.random().toString(36).slice(2)}.json`);
  return new Promise((resolve, reject) => {
    const child = spawn(
      spectralBin,
      ['lint', document, '--ruleset', ruleset, '--format', 'json', '--output', out, '--fail-severity', 'hint'],
      {
        cwd: repoRoot,
        // Spectral's dependency @scarf/scarf phones home unless told not to.
        env: { ...process.env, SCARF_ANALYTICS: 'false', DO_NOT_TRACK: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let log = '';
    child.stdout.on('data', (chunk) => (log += chunk));
    child.stderr.on('data', (chunk) => (log += chunk));
    child.on('error', (error) =>
      reject(
        new Error(`cannot run ${spectralBin} (run \`npm ci\` to install @stoplight/spectral-cli): ${error.message}`),
      ),
    );
    child.on('close', async (code) => {
      // 0: nothing found; 1: results found. Anything else is Spectral failing to run.
      if (code !== 0 && code !== 1) return reject(new Error(`spectral exited with ${code}\n${log}`));
      try {
        resolve(JSON.parse(await readFile(out, 'utf8')) as SpectralResult[]);
      } catch (error) {
        reject(new Error(`spectral wrote no JSON report (${String(error)})\n${log}`));
      }
    });
  });
}

const summary = (results: SpectralResult[]) => results.map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`);

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'baas-spectral-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('OWASP API Security review (Spectral)', () => {
  it('reports no error, warning or hint on the bundled spec', async () => {
    const results = await spectral('src/generated/openapi.yaml', '.spectral.yaml', work);
    expect(summary(results)).toEqual([]);
  });

  it('gives a reason beside every rule it turns off', async () => {
    const ruleset = await readFile(join(repoRoot, '.spectral.yaml'), 'utf8');
    const lines = ruleset.split('\n');
    const offs = lines.map((line, i) => [line, i] as const).filter(([line]) => /:\s*off\s*$/.test(line));
    expect(offs.length).toBeGreaterThan(0);
    for (const [line, i] of offs) {
      // The comment block right above the rule (or above its override's file list) says why.
      const above = lines.slice(0, i).reverse();
      const reason = above.find((l) => l.trim().startsWith('#'));
      expect(reason, `no reason for "${line.trim()}"`).toBeDefined();
    }
    // And the spec tells its readers the same.
    const spec = await readFile(join(repoRoot, 'openapi/openapi.yaml'), 'utf8');
    for (const [line] of offs) expect(spec).toContain(line.trim().replace(/:\s*off$/, ''));
  });

  describe('fires on a copy of the spec that breaks it', () => {
    let broken: SpectralResult[];
    beforeAll(async () => {
      const dir = join(work, 'broken');
      await mkdir(dir);
      // The copy's ruleset lives outside the repo, so it names the OWASP ruleset by its file.
      const ruleset = await readFile(join(repoRoot, '.spectral.yaml'), 'utf8');
      const owasp = createRequire(import.meta.url).resolve('@stoplight/spectral-owasp-ruleset');
      const copied = ruleset.replace("'@stoplight/spectral-owasp-ruleset'", JSON.stringify(owasp));
      expect(copied).not.toBe(ruleset);
      await writeFile(join(dir, '.spectral.yaml'), copied);
      const spec = JSON.parse(await readFile(join(repoRoot, 'src/generated/openapi.json'), 'utf8'));
      // An http server without audience or environment.
      spec.servers.push({ url: 'http://api.example.com', description: 'Somewhere' });
      // A 200 without rate-limit headers.
      delete spec.paths['/v2/api/pix/keys/list-keys'].get.responses['200'].headers.RateLimit;
      // An integer without format.
      delete spec.components.parameters.Limit.schema.format;
      // A string no override covers, without pattern or format.
      delete spec.components.headers.RequestId.schema.pattern;
      // The override globs name openapi.yaml; JSON is YAML.
      await writeFile(join(dir, 'openapi.yaml'), JSON.stringify(spec, null, 2));
      broken = await spectral(join(dir, 'openapi.yaml'), join(dir, '.spectral.yaml'), work);
    });

    it.each([
      ['owasp:api8:2023-no-server-http', 'servers.1.url'],
      ['owasp:api9:2023-inventory-access', 'servers.1'],
      ['owasp:api9:2023-inventory-environment', 'servers.1.description'],
      ['owasp:api4:2023-rate-limit', 'paths./v2/api/pix/keys/list-keys.get.responses.200.headers'],
      ['owasp:api4:2023-integer-format', 'components.parameters.Limit.schema'],
      ['owasp:api4:2023-string-restricted', 'components.headers.RequestId.schema'],
    ])('%s at %s', (code, path) => {
      expect(summary(broken)).toContainEqual(
        expect.stringMatching(new RegExp(`^${code} at ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:`)),
      );
    });

    it('and on nothing else', () => {
      expect(broken.length).toBe(6);
    });
  });
});
