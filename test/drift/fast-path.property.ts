// The fast path (first error only, UTF-16 lengths) must never accept a response the full validator
// rejects: otherwise a drift would pass unseen. Checked on random changes of a real page, astral
// characters included, and on the one place where UTF-16 lengths are laxer (minLength).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { responseContract } from '../../src/generated/response-validators.js';
import { fastPathSchema } from '../../scripts/lib/response-validators.mjs';
import { createSandbox } from '../../src/sandbox/index.js';
import { readBundledSpec } from '../../src/shipped-files.js';
import { type Depth, runsAt } from '../properties/depth.js';

const sandbox = createSandbox({ seed: 'fast-path', keysPerAccount: 5 });
const token = sandbox.clients[0]!.token;
const page = (await (
  await sandbox.fetch('http://sandbox.local/v2/api/pix/keys/list-keys?limit=20', {
    headers: { authorization: `Bearer ${token}`, 'user-agent': 'fast-path-test/1' },
  })
).json()) as { data: Record<string, unknown>[] };
const listed = responseContract.listPixKeys!['200']!;
const full = listed.contentTypes['application/json']!;
const fast = listed.fastContentTypes['application/json']!;
const problem = responseContract.listPixKeys!['500']!;

// Every leaf member of a key record, as the spec declares it (PixKeyList's data items, through $ref and
// each branch of oneOf, anyOf and allOf): a member the contract gains is changed at random too.
type Schema = { $ref?: string; properties?: Record<string, Schema>; items?: Schema } & Partial<
  Record<'oneOf' | 'anyOf' | 'allOf', Schema[]>
>;
const spec = readBundledSpec() as { components: { schemas: Record<string, Schema> } };
const resolved = (schema: Schema): Schema =>
  schema.$ref ? resolved(spec.components.schemas[schema.$ref.replace('#/components/schemas/', '')]!) : schema;
function leafPaths(schema: Schema, at: string[] = []): string[][] {
  const here = resolved(schema);
  const branches = [here, ...(here.oneOf ?? []), ...(here.anyOf ?? []), ...(here.allOf ?? [])].map(resolved);
  const members = branches.flatMap((branch) => Object.entries(branch.properties ?? {}));
  if (members.length === 0) return [at];
  const paths = members.flatMap(([name, member]) => leafPaths(member, [...at, name]));
  return [...new Map(paths.map((path) => [path.join('.'), path])).values()];
}
const PATHS = leafPaths(spec.components.schemas.PixKeyList!.properties!.data!.items!);

const DELETE = Symbol('delete');
const value = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.stringMatching(/^[0-9]{1,15}$/),
  fc.constantFrom('😀', '😀😀😀😀😀😀😀😀😀😀😀', 'phone', 'cpf', 'frozen', '', '+5511987654321', DELETE),
  fc.integer(),
  fc.constant(null),
);

/** The leaf members of a record as served, by their dotted paths. */
function recordLeaves(record: Record<string, unknown>, at = ''): string[] {
  return Object.entries(record).flatMap(([name, member]) =>
    member !== null && typeof member === 'object' && !Array.isArray(member)
      ? recordLeaves(member as Record<string, unknown>, `${at}${name}.`)
      : [`${at}${name}`],
  );
}

function mutated(index: number, path: string[], replacement: unknown): unknown {
  const copy = structuredClone(page);
  let node = copy.data[index % copy.data.length] as Record<string, unknown>;
  for (const segment of path.slice(0, -1)) node = node[segment] as Record<string, unknown>;
  if (replacement === DELETE) delete node[path.at(-1)!];
  else node[path.at(-1)!] = replacement;
  return copy;
}

/** The properties, at `depth` (../properties/depth.ts): fast-path.test.ts quick, fast-path.matrix.test.ts full. */
export function fastPathProperties(depth: Depth): void {
  describe('response validation fast path', () => {
    it("changes every leaf member of a key record the spec declares, and the sandbox's records have no other", () => {
      expect(PATHS.map((path) => path.join('.'))).toEqual(
        expect.arrayContaining(['id', 'beneficiary_entity.document']),
      );
      const served = recordLeaves(page.data[0]!);
      expect(served.filter((path) => !PATHS.some((known) => known.join('.') === path))).toEqual([]);
      expect(served.length).toBe(PATHS.length);
    });

    it('the unchanged page passes both', () => {
      expect(page.data.length).toBe(10);
      expect(full(page)).toBe(true);
      expect(fast(page)).toBe(true);
    });

    it('never accepts a changed key record that the full validator rejects (and agrees on ASCII)', () => {
      let rejected = 0;
      fc.assert(
        fc.property(fc.nat(), fc.constantFrom(...PATHS), value, (index, path, replacement) => {
          const body = mutated(index, path, replacement);
          const ok = full(body);
          if (!ok) rejected += 1;
          if (fast(body)) expect(ok).toBe(true);
          // Only astral characters (surrogate pairs) may make the fast path stricter than the full check.
          if (ok && !/[\uD800-\uDFFF]/.test(JSON.stringify(replacement) ?? '')) expect(fast(body)).toBe(true);
        }),
        { seed: 2026_1202, numRuns: runsAt(depth, 2000) },
      );
      // The property is not vacuous: many changes break the contract (a quarter and more).
      expect(rejected).toBeGreaterThan(runsAt(depth, 2000) / 4);
    });

    it('problem details: never accepts what the full validator rejects', () => {
      const validate = problem.contentTypes['application/problem+json']!;
      const quick = problem.fastContentTypes['application/problem+json']!;
      fc.assert(
        fc.property(
          fc.dictionary(
            fc.constantFrom('type', 'title', 'status', 'detail', 'instance', 'correlationId', 'violations'),
            fc.oneof(
              fc.string({ unit: 'binary' }),
              fc.integer(),
              fc.constant(null),
              fc.array(fc.object(), { maxLength: 2 }),
            ),
          ),
          (body) => {
            if (quick(body)) expect(validate(body)).toBe(true);
          },
        ),
        { seed: 2026_1202, numRuns: runsAt(depth, 1000) },
      );
    });

    it('a minLength above 1 without an ASCII-only pattern is widened to 2n−1 UTF-16 units, never narrowed', () => {
      // Two astral characters are 2 code points but 4 UTF-16 units: with minLength 3 the full check
      // rejects them, so the fast path must too.
      expect(fastPathSchema({ type: 'string', minLength: 3 })).toEqual({ type: 'string', minLength: 5 });
      expect(fastPathSchema({ type: 'string', minLength: 3, pattern: '^[0-9]+$' })).toEqual({
        type: 'string',
        minLength: 3,
        pattern: '^[0-9]+$',
      });
      expect(fastPathSchema({ type: 'string', minLength: 3, pattern: '^.+$' })).toEqual({
        type: 'string',
        minLength: 5,
        pattern: '^.+$',
      });
      expect(fastPathSchema({ type: 'string', minLength: 1 })).toEqual({ type: 'string', minLength: 1 });
      expect(fastPathSchema({ type: 'string', minLength: 6, pattern: '^[\\x21-\\x7E][\\x20-\\x7E]*$' }).minLength).toBe(
        6,
      );
      expect(fastPathSchema({ type: 'string', minLength: 6, pattern: '^[\\x21-\\xFF]+$' }).minLength).toBe(11);
    });
  });
}
