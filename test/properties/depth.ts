// How far a property runs. Each property is written once, in a `*.property.ts` module that takes a
// depth; a quick `*.test.ts` (npm test) and a `*.matrix.test.ts` (npm run test:matrix) each call it
// with theirs (TESTING.md, "Quick and matrix"). Both runs use the same fixed seed, so the quick run is
// the first tenth of the full one, and a failure of either is replayed by its seed and path.

export type Depth = 'quick' | 'full';

/**
 * Set by the mutation suite (vitest.mutation.config.ts), which runs the quick files: a mutant that only
 * the full run kills must not survive because `npm test` is quick, so there every depth is `full`.
 */
export const FULL_DEPTH_ENV = 'PROPERTY_DEPTH';

/**
 * The run count of a property at `depth`: `full` in the matrix; in `npm test` a tenth of it, but at
 * least `least` (10 unless a property needs more to meet every case it claims to meet).
 */
export function runsAt(depth: Depth, full: number, least = 10): number {
  return depth === 'full' || process.env[FULL_DEPTH_ENV] === 'full'
    ? full
    : Math.min(full, Math.max(least, Math.ceil(full / 10)));
}
