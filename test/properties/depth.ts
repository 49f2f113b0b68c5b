// How far a property runs. Each property is written once, in a `*.property.ts` module that takes a
// depth; a quick `*.test.ts` (npm test) and a `*.matrix.test.ts` (npm run test:matrix) each call it
// with theirs (TESTING.md, "Quick and matrix"). Both runs use the same fixed seed, so the quick run is
// the first tenth of the full one, and a failure of either is replayed by its seed and path.

export type Depth = 'quick' | 'full';

/**
 * The run count of a property at `depth`: `full` in the matrix; in `npm test` a tenth of it, but at
 * least `least` (10 unless a property needs more to meet every case it claims to meet).
 */
export function runsAt(depth: Depth, full: number, least = 10): number {
  return depth === 'full' ? full : Math.min(full, Math.max(least, Math.ceil(full / 10)));
}
