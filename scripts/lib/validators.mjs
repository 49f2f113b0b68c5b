// Compiles the request schemas of the bundled spec into standalone Ajv validators: plain ESM with
// no `eval`/`new Function` at run time and no dependency on Ajv, so consumers ship only the code.
import { createRequire } from 'node:module';
import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormats from 'ajv-formats';

const require = createRequire(import.meta.url);

// The bundle gets an absolute id so the query schemas, which live outside it, can `$ref` into it.
const BUNDLE_ID = 'https://baas-pix-contract.local/openapi.json';

/**
 * One export of validators.js each. A body validator points at a component schema; a query
 * validator is an object schema assembled from the operation's query parameters.
 */
const VALIDATORS = [
  { name: 'naturalPersonUpdate', schema: 'NaturalPersonUpdate', doc: 'The body of updateNaturalPerson (NaturalPersonUpdate).' },
  { name: 'updateNaturalPersonQuery', queryOf: 'updateNaturalPerson', doc: 'The query parameters of updateNaturalPerson, as one object.' },
  { name: 'listPixKeysQuery', queryOf: 'listPixKeys', doc: 'The query parameters of listPixKeys, as one object.' },
];

export const VALIDATOR_NAMES = VALIDATORS.map((v) => v.name);

const escapePointer = (segment) => String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
const unescapePointer = (segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~');
const resolvePointer = (spec, pointer) => pointer.replace(/^#\//, '').split('/').map(unescapePointer).reduce((node, key) => node[key], spec);

function findOperation(spec, operationId) {
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation?.operationId === operationId) return { path, method, item, operation };
    }
  }
  throw new Error(`no operation with operationId ${operationId} in the spec`);
}

/**
 * An object schema for an operation's query. Each property is a `$ref` to the parameter's own
 * schema in the bundle, so patterns and bounds are never copied and any `$ref` inside them still
 * resolves against the bundle.
 */
function querySchema(spec, operationId, id) {
  const { path, method, item, operation } = findOperation(spec, operationId);
  const located = (list, base) =>
    (list ?? []).map((node, index) => {
      const pointer = node.$ref ?? `${base}/parameters/${index}`;
      return { pointer, parameter: node.$ref ? resolvePointer(spec, node.$ref) : node };
    });
  const pathBase = `#/paths/${escapePointer(path)}`;
  // OpenAPI: operation parameters override path-level ones with the same name and location.
  const byKey = new Map();
  for (const entry of [...located(item.parameters, pathBase), ...located(operation.parameters, `${pathBase}/${method}`)]) {
    byKey.set(`${entry.parameter.in}:${entry.parameter.name}`, entry);
  }
  const properties = {};
  const required = [];
  for (const { pointer, parameter } of byKey.values()) {
    if (parameter.in !== 'query') continue;
    properties[parameter.name] = { $ref: `${BUNDLE_ID}${pointer}/schema` };
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

/** Returns the source of validators.js: one named export per request schema. */
export async function validatorSource(fullSpec) {
  const spec = withoutDocs(fullSpec);
  const ajv = new Ajv2020({
    allErrors: true,
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
  for (const v of VALIDATORS) {
    if (v.queryOf) {
      ajv.addSchema(querySchema(spec, v.queryOf, v.name));
      refs[v.name] = v.name;
    } else {
      if (!spec.components?.schemas?.[v.schema]) throw new Error(`no component schema ${v.schema} in the spec`);
      refs[v.name] = `${BUNDLE_ID}#/components/schemas/${escapePointer(v.schema)}`;
    }
  }
  return `${inlineRuntimeHelpers(standaloneCode(ajv, refs))}\n`;
}

export const VALIDATOR_TYPES = `export interface GeneratedValidatorError {
  /** JSON pointer of the failing value inside the validated data. */
  instancePath: string;
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
${VALIDATORS.map((v) => `/** ${v.doc} */\nexport declare const ${v.name}: GeneratedValidator;`).join('\n')}
`;
