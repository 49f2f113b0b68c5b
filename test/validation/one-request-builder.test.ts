// One request builder, as rules over the source: every URL the package sends to an operation of the
// contract is built by src/validation/request.ts (buildRequest) from the generated operation table.
// openapi-fetch builds `raw`'s (src/client/raw.ts), which one-loop.test.ts keeps to that one file.
import { describe, expect, it } from 'vitest';
import { matching, sourceFiles } from '../support/source-scan.js';
import { operationNames, operations } from '../../src/generated/operations.js';

const BUILDER = 'src/validation/request.ts';

// The parts that send requests (ARCHITECTURE.md): the client, the token request, verify, the batch, the
// transport; and the command line, whose mock and sandbox print a ready curl line of an operation.
const SENDING_PARTS = ['src/client', 'src/auth', 'src/verify', 'src/batch', 'src/transport', 'src/cli'];

describe('one request builder', () => {
  it("only the builder sets a URL's path or query (masking rewrites a URL it is shown, for display)", async () => {
    const all = await sourceFiles('src');
    expect(all.length).toBeGreaterThan(50);
    const setsPathOrQuery = /\.(pathname|search|hash)\s*=(?!=)|\bsearchParams\.(set|append|delete)\(/;
    expect(await matching(all, setsPathOrQuery)).toEqual(['src/redact.ts', BUILDER]);
  });

  it('no part that sends (nor the command line, which prints curl lines) writes an operation path or joins text onto a base URL', async () => {
    const files: string[] = [];
    for (const dir of SENDING_PARTS) files.push(...(await sourceFiles(dir)));
    expect(files).toContain('src/verify/checks.ts');
    expect(files).toContain('src/cli/sandbox.ts');
    const paths = operationNames.map((name) => operations[name].path);
    // An operation's path, or any leading segment of one ('/v2/api/'), as text of the code.
    const segments = new Set(
      paths.flatMap((path) =>
        path
          .split('/')
          .slice(1, 3)
          .map((s) => `/${s}/`),
      ),
    );
    const writesPath = new RegExp(
      [...paths, ...segments].map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'),
    );
    expect(await matching(files, writesPath)).toEqual([]);
    // `baseUrl + …`, `${baseUrl}/…`, `${baseUrl}${…path}`, or a URL resolved against a base URL.
    const joinsBaseUrl = /\bbaseUrl\s*\+|\$\{[\w.?]*baseUrl\}(\/|\$\{[\w.?]*path\})|new URL\([^)]*,\s*[\w.?]*baseUrl/i;
    expect(await matching(files, joinsBaseUrl)).toEqual([]);
  });

  it('the client and verify send what the builder built, and the curl lines the command line prints are its requests', async () => {
    expect(await matching(await sourceFiles('src'), /\bbuildRequest\(/)).toEqual([
      'src/cli/curl.ts',
      'src/client/baas-client.ts',
      'src/verify/checks.ts',
    ]);
  });

  it('the rules can fail: each pattern matches the hand-built URLs they forbid', () => {
    const setsPathOrQuery = /\.(pathname|search|hash)\s*=(?!=)|\bsearchParams\.(set|append|delete)\(/;
    expect(setsPathOrQuery.test('url.pathname = `${base}${path}`')).toBe(true);
    expect(setsPathOrQuery.test("url.searchParams.set('limit', '201')")).toBe(true);
    expect(setsPathOrQuery.test('if (url.search === "") return')).toBe(false);
    const joinsBaseUrl = /\bbaseUrl\s*\+|\$\{[\w.?]*baseUrl\}(\/|\$\{[\w.?]*path\})|new URL\([^)]*,\s*[\w.?]*baseUrl/i;
    expect(joinsBaseUrl.test('let url = baseUrl + operation.path;')).toBe(true);
    expect(joinsBaseUrl.test('`${settings.baseUrl}/v2/x`')).toBe(true);
    expect(joinsBaseUrl.test('`${ctx.options.baseUrl}${path}`')).toBe(true);
    expect(joinsBaseUrl.test('new URL(path, options.baseUrl)')).toBe(true);
    expect(joinsBaseUrl.test('`no answer from ${baseUrl}${why} for 3 lines`')).toBe(false);
  });
});
