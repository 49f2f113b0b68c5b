// A nesting depth past what any recursive walk can reach on this runtime's stack: twice the depth at
// which a recursion of the smallest frame overflows it (about 13,700 on Node 20's main thread, more in a
// worker thread with its larger stack; JSON.stringify overflows at 3,000-5,000). A walker that recursed
// over a value this deep throws a RangeError; a deeper value costs CPU and pins nothing more
// (TESTING.md, "Quick and matrix", rule 3).
export const PAST_THE_STACK = (() => {
  let depth = 0;
  const down = (): void => {
    depth += 1;
    down();
  };
  try {
    down();
  } catch {
    // The stack's end: `depth` is how far a recursion got.
  }
  return 2 * depth;
})();
