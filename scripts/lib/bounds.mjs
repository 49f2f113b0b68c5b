// The bounds a provider's answer must keep, read from the bundled spec (never kept by hand): the page
// walker, response validation and the command line's `--limit` take them from src/generated/bounds.ts.
import { resolvePointer } from './operations.mjs';

const schemaAt = (spec, pointer) => {
  let node = resolvePointer(spec, pointer);
  for (let hops = 0; hops < 10 && typeof node?.$ref === 'string'; hops += 1) node = resolvePointer(spec, node.$ref);
  if (node === undefined) throw new Error(`bounds: nothing at ${pointer} in the bundled spec`);
  return node;
};

const numberAt = (spec, pointer, keyword) => {
  const value = schemaAt(spec, pointer)[keyword];
  if (typeof value !== 'number') throw new Error(`bounds: ${pointer} has no ${keyword}`);
  return value;
};

/** The largest `maxItems` of any schema in the spec: no array a provider sends may hold more. */
function largestMaxItems(node, seen = new Set()) {
  if (node === null || typeof node !== 'object' || seen.has(node)) return 0;
  seen.add(node);
  let largest = typeof node.maxItems === 'number' ? node.maxItems : 0;
  for (const value of Object.values(node)) largest = Math.max(largest, largestMaxItems(value, seen));
  return largest;
}

/**
 * Each pattern of the contract with the example its schema gives (the first that matches it), so a
 * message can show the form as well as the pattern (`-23,56` against the Coordinate pattern shows
 * `e.g. -46.6558819`). The text pattern is left out: its rule is said in words.
 */
function patternExamples(node, text, found = {}, seen = new Set()) {
  if (node === null || typeof node !== 'object' || seen.has(node)) return found;
  seen.add(node);
  const { pattern } = node;
  if (typeof pattern === 'string' && pattern !== text && !Object.hasOwn(found, pattern)) {
    const examples = [...(Array.isArray(node.examples) ? node.examples : []), node.example];
    const example = examples.find((value) => typeof value === 'string' && new RegExp(pattern, 'u').test(value));
    if (example !== undefined) found[pattern] = example;
  }
  for (const value of Object.values(node)) patternExamples(value, text, found, seen);
  return found;
}

export function boundsSource(spec) {
  const limit = '#/components/parameters/Limit/schema';
  const next = '#/components/schemas/Cursor/properties/next';
  const bounds = {
    PAGE_LIMIT_MAX: numberAt(spec, limit, 'maximum'),
    PAGE_LIMIT_MIN: numberAt(spec, limit, 'minimum'),
    PAGE_ITEMS_MAX: numberAt(spec, '#/components/schemas/PixKeyList/properties/data', 'maxItems'),
    CURSOR_MAX_LENGTH: numberAt(spec, next, 'maxLength'),
    ARRAY_ITEMS_MAX: largestMaxItems(spec),
  };
  const text = schemaAt(spec, '#/components/schemas/NaturalPersonUpdate/properties/socialName').pattern;
  if (typeof text !== 'string') throw new Error('bounds: socialName has no pattern');
  const pattern = schemaAt(spec, next).pattern;
  if (typeof pattern !== 'string') throw new Error(`bounds: ${next} has no pattern`);
  const docs = {
    PAGE_LIMIT_MAX: "The largest `limit` a page may be asked with (the Limit parameter's maximum).",
    PAGE_LIMIT_MIN: "The smallest `limit` (the Limit parameter's minimum).",
    PAGE_ITEMS_MAX: "The most keys one page may hold (PixKeyList's data maxItems).",
    CURSOR_MAX_LENGTH: "The longest cursor a page may send (Cursor's next maxLength).",
    ARRAY_ITEMS_MAX: 'The largest maxItems of any array of the contract.',
  };
  const lines = Object.entries(bounds).map(([name, value]) => `/** ${docs[name]} */\nexport const ${name} = ${value};`);
  lines.push(
    `/** What a cursor is made of (Cursor's next pattern). */\nexport const CURSOR_PATTERN = ${JSON.stringify(pattern)};`,
  );
  lines.push(
    `/** What a text field of the contract may hold: no control character (socialName's pattern, the same on every text field). */\nexport const TEXT_PATTERN = ${JSON.stringify(text)};`,
  );
  const examples = Object.fromEntries(Object.entries(patternExamples(spec, text)).sort(([a], [b]) => (a < b ? -1 : 1)));
  lines.push(
    `/** An example of each pattern of the contract (a schema's own, the first matching it), keyed by the pattern; the text pattern has none. */\nexport const PATTERN_EXAMPLES: Readonly<Record<string, string>> = ${JSON.stringify(examples, null, 2)};`,
  );
  return `${lines.join('\n')}\n`;
}
