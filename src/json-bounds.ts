// How much of a parsed JSON value from a provider the package keeps or walks: a depth beyond which a
// body is refused, and a bounded copy for what an error keeps of an answer. Both iterative (their own
// stack), so no nesting reaches the call stack: a key nested 1,000,000 deep ended export-keys with
// "Maximum call stack size exceeded" once JSON.stringify met it.

/** The deepest nesting a provider's JSON may have (objects and arrays inside each other): 64 levels. */
export const MAX_JSON_DEPTH = 64;
/** The most members of one object an error keeps of a provider's problem details. */
export const MAX_KEPT_MEMBERS = 100;
/** The most items of one list an error keeps (the contract's violations hold at most 100). */
export const MAX_KEPT_ITEMS = 100;

const isContainer = (value: unknown): value is Record<string, unknown> | unknown[] =>
  typeof value === 'object' && value !== null;

/** The JSON pointer of the first value nested deeper than `maxDepth`, or undefined when none is. */
export function tooDeepAt(value: unknown, maxDepth: number = MAX_JSON_DEPTH): string | undefined {
  const stack: Array<{ value: unknown; depth: number; pointer: string }> = [{ value, depth: 0, pointer: '' }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (!isContainer(next.value)) continue;
    if (next.depth >= maxDepth) return next.pointer;
    for (const [name, child] of Object.entries(next.value))
      if (isContainer(child))
        stack.push({
          value: child,
          depth: next.depth + 1,
          pointer: `${next.pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`,
        });
  }
  return undefined;
}

/**
 * A copy of `value` with at most MAX_KEPT_MEMBERS members per object and MAX_KEPT_ITEMS items per list,
 * nothing nested deeper than MAX_JSON_DEPTH, and a member `__proto__` kept as a plain member. The work
 * is bounded by what is kept, whatever the size of `value`.
 */
export function boundedCopy<T>(value: T): T {
  if (!isContainer(value)) return value;
  const root: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
  const stack: Array<{
    from: Record<string, unknown> | unknown[];
    to: Record<string, unknown> | unknown[];
    depth: number;
  }> = [{ from: value, to: root, depth: 1 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { from, to, depth } = next;
    const keep = (name: string, child: unknown): void => {
      let copy = child;
      if (isContainer(child)) {
        // Deeper than the bound: dropped, as masking drops it.
        if (depth >= MAX_JSON_DEPTH) return;
        copy = Array.isArray(child) ? [] : {};
        stack.push({ from: child, to: copy as Record<string, unknown> | unknown[], depth: depth + 1 });
      }
      if (Array.isArray(to)) to.push(copy);
      else Object.defineProperty(to, name, { value: copy, enumerable: true, writable: true, configurable: true });
    };
    if (Array.isArray(from)) {
      for (let i = 0; i < Math.min(from.length, MAX_KEPT_ITEMS); i += 1) keep(String(i), from[i]);
      continue;
    }
    let members = 0;
    for (const name in from) {
      if (!Object.hasOwn(from, name)) continue;
      if (members++ >= MAX_KEPT_MEMBERS) break;
      keep(name, from[name]);
    }
  }
  return root as T;
}
