// Compiles the request schemas of the bundled spec into standalone Ajv validators: plain ESM with
// no `eval`/`new Function` at run time and no dependency on Ajv, so consumers ship only the code.
import { createRequire } from 'node:module';
import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormats from 'ajv-formats';
import { listOperations } from './operations.mjs';

const require = createRequire(import.meta.url);

// The bundle gets an absolute id so the query schemas, which live outside it, can `$ref` into it.
const BUNDLE_ID = 'https://baas-pix-contract.local/openapi.json';

/**
 * One query validator (when the operation has query parameters) and one body validator (when it
 * takes a JSON body) per operationId, found by walking `paths`: `<operationId>Query`, `<operationId>Body`.
 */
export function validatorsOf(spec) {
  return listOperations(spec).flatMap((op) => [
    ...(op.parameters.some((p) => p.in === 'query')
      ? [{ name: `${op.operationId}Query`, operation: op, doc: `The query parameters of ${op.operationId}, as one object.` }]
      : []),
    ...(op.body ? [{ name: `${op.operationId}Body`, schemaPointer: op.body.schemaPointer, doc: `The ${op.body.mediaType} body of ${op.operationId}.` }] : []),
  ]);
}

/**
 * An object schema for an operation's query. Each property is a `$ref` to the parameter's own
 * schema in the bundle, so patterns and bounds are never copied and any `$ref` inside them still
 * resolves against the bundle.
 */
function querySchema(operation, id) {
  const properties = {};
  const required = [];
  for (const parameter of operation.parameters) {
    if (parameter.in !== 'query') continue;
    properties[parameter.name] = { $ref: `${BUNDLE_ID}${parameter.pointer}/schema` };
    if (parameter.required) required.push(parameter.name);
  }
  return { $id: id, type: 'object', properties, required };
}

const DOC_KEYWORDS = new Set(['description', 'examples', 'example', 'title', 'summary', 'externalDocs']);
// Their keys are names chosen by the spec's author (Problem has a field called `title`), not keywords.
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
// Their contents are data, copied as they are.
const DATA_KEYWORDS = new Set(['enum', 'const', 'default']);

/** The spec without documentation keywords, which the validators would otherwise embed as dead weight. */
function withoutDocs(node, parentKey) {
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

// Ajv's standalone code `require`s its runtime helpers even in ESM mode. Each helper it needs here
// (ucs2length, for string lengths in code points) is one self-contained function, so its own source
// is pasted in: consumers then need no Ajv at run time, and the text depends on nothing but the
// installed Ajv version.
const RUNTIME_HELPER = /require\("(ajv\/dist\/runtime\/[\w-]+)"\)\.default/g;

function inlineRuntimeHelpers(code) {
  const inlined = code.replace(RUNTIME_HELPER, (_, id) => `(${require(id).default.toString()})`);
  const leftover = inlined.match(/require\([^)]*\)/);
  if (leftover) {
    // E.g. a function format such as date-time: its closure cannot be pasted as one function.
    throw new Error(`validators.js would need ${leftover[0]} at run time; make scripts/lib/validators.mjs inline it`);
  }
  return inlined;
}

// Each error object Ajv emits names the schema keyword it came from (`schemaPath:"#/properties/…"`).
// The rules (src/validation/rules.ts) read only `keyword`, `params` and `instancePath`, so those
// strings are emptied rather than shipped: about 180 B gzip of the 12 kB entry budget.
const SCHEMA_PATH = /schemaPath:"(?:[^"\\]|\\.)*"/g;
const withoutSchemaPaths = (code) => code.replace(SCHEMA_PATH, 'schemaPath:""');

/** Returns the source of validators.js: one named export per request schema. */
export async function validatorSource(fullSpec) {
  const spec = withoutDocs(fullSpec);
  const ajv = new Ajv2020({
    allErrors: true,
    // The rules read keyword and params only (src/validation/rules.ts): Ajv's English messages need not ship.
    messages: false,
    // OpenAPI keywords outside JSON Schema (discriminator, xml, …) must not stop compilation.
    strict: false,
    code: { source: true, esm: true, lines: true },
    // With strict off, Ajv would only warn about an unknown format and then skip the check.
    logger: { log() {}, warn: (message) => { throw new Error(`Ajv: ${message}`); }, error: (message) => { throw new Error(`Ajv: ${message}`); } },
  });
  // Regex formats (email, uuid, uri-reference, …) are emitted as literals; function formats are caught above.
  addFormats(ajv);
  // int32/int64 are for code generators: every integer already has bounds inside int32 (a lint rule
  // requires them), and ajv-formats' check is a function that standalone code cannot inline.
  ajv.addFormat('int32', true);
  ajv.addFormat('int64', true);
  ajv.addSchema(spec, BUNDLE_ID);
  const refs = {};
  for (const v of validatorsOf(spec)) {
    if (v.operation) {
      ajv.addSchema(querySchema(v.operation, v.name));
      refs[v.name] = v.name;
    } else {
      refs[v.name] = `${BUNDLE_ID}${v.schemaPointer}`;
    }
  }
  return `${withoutSchemaPaths(inlineRuntimeHelpers(standaloneCode(ajv, refs)))}\n`;
}

export const validatorTypes = (fullSpec) => `export interface GeneratedValidatorError {
  /** JSON pointer of the failing value inside the validated data. */
  instancePath: string;
  /** Always empty: emptied by the generator, nothing reads it. */
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}
export interface GeneratedValidator {
  (data: unknown): boolean;
  /** Every error of the last call that returned false (allErrors). */
  errors?: GeneratedValidatorError[] | null;
}
${validatorsOf(withoutDocs(fullSpec)).map((v) => `/** ${v.doc} */\nexport declare const ${v.name}: GeneratedValidator;`).join('\n')}
`;
