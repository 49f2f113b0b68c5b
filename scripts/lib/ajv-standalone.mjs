// What the request and the response validator generators share: one Ajv set-up, the pruning of
// documentation keywords, and the inlining of Ajv's runtime helpers, so that the generated files
// are plain ESM with no `eval`/`new Function` at run time and no dependency on Ajv.
import { createRequire } from 'node:module';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const require = createRequire(import.meta.url);

// The bundle gets an absolute id so schemas that live outside it (query objects, header objects)
// can `$ref` into it.
export const BUNDLE_ID = 'https://baas-pix-contract.local/openapi.json';

const RFC3339_DATE_TIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

/**
 * An Ajv for standalone code: no unknown format skipped, only formats that inline. Every error by
 * default; `allErrors: false` stops at the first (a yes/no fast path).
 */
export function standaloneAjv({ messages, allErrors = true }) {
  const ajv = new Ajv2020({
    allErrors,
    messages,
    // OpenAPI keywords outside JSON Schema (discriminator, xml, …) must not stop compilation.
    strict: false,
    code: { source: true, esm: true, lines: true },
    // With strict off, Ajv would only warn about an unknown format and then skip the check.
    logger: {
      log() {},
      warn: (message) => {
        throw new Error(`Ajv: ${message}`);
      },
      error: (message) => {
        throw new Error(`Ajv: ${message}`);
      },
    },
  });
  // Regex formats (email, uuid, uri-reference, …) are emitted as literals.
  addFormats(ajv);
  // int32/int64 are for code generators: every integer already has bounds inside int32 (a lint rule
  // requires them), and ajv-formats' check is a function that standalone code cannot inline.
  ajv.addFormat('int32', true);
  ajv.addFormat('int64', true);
  // ajv-formats checks date-time with a function (calendar and leap-second rules) that standalone
  // code cannot carry without Ajv; an RFC 3339 regex is emitted as a literal. The fields that use it
  // (created_at) carry their own stricter pattern anyway.
  ajv.addFormat('date-time', RFC3339_DATE_TIME);
  return ajv;
}

const DOC_KEYWORDS = new Set(['description', 'examples', 'example', 'title', 'summary', 'externalDocs']);
// Their keys are names chosen by the spec's author (Problem has a field called `title`), not keywords.
const NAME_MAPS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'dependentSchemas',
  'headers',
  'responses',
  'paths',
  'schemas',
  'content',
]);
// Their contents are data, copied as they are.
const DATA_KEYWORDS = new Set(['enum', 'const', 'default']);

/** The spec without documentation keywords, which the validators would otherwise embed as dead weight. */
export function withoutDocs(node, parentKey) {
  if (Array.isArray(node)) return node.map((item) => withoutDocs(item));
  if (!node || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    const isName = NAME_MAPS.has(parentKey);
    if (!isName && (DOC_KEYWORDS.has(key) || key.startsWith('x-'))) continue;
    out[key] = !isName && DATA_KEYWORDS.has(key) ? value : withoutDocs(value, key);
  }
  return out;
}

// Ajv's ucs2length walks every string char by char to count code points, and a key page has
// thousands of strings with length bounds: it was close to half the time of checking a 200-key
// page. This one gives the same count (test/drift/checker.test.ts compares them) and returns
// .length at once when the string holds no high surrogate, which is nearly always.
// Kept as text, not as a function: a test runner that transforms this file (vitest does) would
// otherwise change the pasted source and make the generated files differ by who generated them.
const UCS2LENGTH = `function ucs2length(str) {
  const len = str.length;
  if (!/[\\uD800-\\uDBFF]/.test(str)) return len;
  let length = 0;
  let pos = 0;
  while (pos < len) {
    length += 1;
    const value = str.charCodeAt(pos++);
    if (value >= 0xd800 && value <= 0xdbff && pos < len && (str.charCodeAt(pos) & 0xfc00) === 0xdc00) pos += 1;
  }
  return length;
}`;
const OWN_HELPERS = { 'ajv/dist/runtime/ucs2length': UCS2LENGTH };

/**
 * For a yes/no pre-check only: UTF-16 length instead of code points. It can only over-count, so
 * `maxLength` can only be stricter; `minLength` would be laxer on astral characters, which
 * `fastPathSchema` (response-validators.mjs) rules out. Ajv's own switch for this (`unicode: false`)
 * is deprecated.
 */
export const UTF16_LENGTH_HELPERS = {
  'ajv/dist/runtime/ucs2length': 'function utf16length(str) { return str.length; }',
};

// Ajv's standalone code `require`s its runtime helpers even in ESM mode. Each helper it needs is one
// self-contained function, so its source is pasted in: consumers then need no Ajv at run time.
const RUNTIME_HELPER = /require\("(ajv\/dist\/runtime\/[\w-]+)"\)\.default/g;

export function inlineRuntimeHelpers(code, file, helpers = OWN_HELPERS) {
  const inlined = code.replace(RUNTIME_HELPER, (_, id) => `(${helpers[id] ?? require(id).default.toString()})`);
  const leftover = inlined.match(/require\([^)]*\)/);
  // E.g. a function format: its closure cannot be pasted as one function.
  if (leftover)
    throw new Error(`${file} would need ${leftover[0]} at run time; inline it in scripts/lib/ajv-standalone.mjs`);
  return inlined;
}
