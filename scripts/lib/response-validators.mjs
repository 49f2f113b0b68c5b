// Compiles every documented response of the bundled spec (each status of each operation: its body
// per media type, and its headers as one object) into standalone Ajv validators, plus a table that
// says, per operation and status, which media types and headers the contract documents. The output
// (response-validators.js) is loaded only when response validation is switched on, so it stays out
// of the client entry's import graph.
import { createRequire } from 'node:module';
import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormats from 'ajv-formats';

const require = createRequire(import.meta.url);
const BUNDLE_ID = 'https://baas-pix-contract.local/openapi.json';
const METHODS = new Set(['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace']);

const escapePointer = (segment) => String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
const unescapePointer = (segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~');
const resolvePointer = (spec, pointer) =>
  pointer.replace(/^#\//, '').split('/').map(unescapePointer).reduce((node, key) => node?.[key], spec);

/** Follows local `$ref`s and returns the node and the pointer where it really lives. */
function deref(spec, node, pointer) {
  let current = node;
  let at = pointer;
  for (let hops = 0; current?.$ref; hops += 1) {
    if (hops > 20 || !current.$ref.startsWith('#/')) throw new Error(`cannot follow $ref ${current.$ref}`);
    at = current.$ref;
    current = resolvePointer(spec, at);
  }
  if (current === undefined) throw new Error(`dangling $ref at ${pointer}`);
  return { node: current, pointer: at };
}

// Same pruning as the request validators (scripts/lib/validators.mjs): documentation is dead weight.
const DOC_KEYWORDS = new Set(['description', 'examples', 'example', 'title', 'summary', 'externalDocs']);
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas', 'headers', 'responses', 'paths', 'schemas', 'content']);
const DATA_KEYWORDS = new Set(['enum', 'const', 'default']);
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

// Ajv's ucs2length walks every string char by char to count code points, and a key page has
// thousands of strings with length bounds: it was close to half the time of checking a 200-key
// page. This one gives the same count (test/drift/checker.test.ts compares them) and returns
// .length at once when the string holds no high surrogate, which is nearly always.
function ucs2length(str) {
  const len = str.length;
  if (!/[\uD800-\uDBFF]/.test(str)) return len;
  let length = 0;
  let pos = 0;
  while (pos < len) {
    length += 1;
    const value = str.charCodeAt(pos++);
    if (value >= 0xd800 && value <= 0xdbff && pos < len && (str.charCodeAt(pos) & 0xfc00) === 0xdc00) pos += 1;
  }
  return length;
}
const OWN_HELPERS = { 'ajv/dist/runtime/ucs2length': ucs2length };

const RUNTIME_HELPER = /require\("(ajv\/dist\/runtime\/[\w-]+)"\)\.default/g;
function inlineRuntimeHelpers(code) {
  const inlined = code.replace(RUNTIME_HELPER, (_, id) => `(${(OWN_HELPERS[id] ?? require(id).default).toString()})`);
  const leftover = inlined.match(/require\([^)]*\)/);
  if (leftover) throw new Error(`response-validators.js would need ${leftover[0]} at run time; inline it in scripts/lib/response-validators.mjs`);
  return inlined;
}

const RFC3339_DATE_TIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

const exportName = (operationId, status, part, index = 0) =>
  `${operationId}${status[0].toUpperCase()}${status.slice(1)}${part}${index === 0 ? '' : index + 1}`;

/**
 * Every documented response: `{ operationId, status, contentTypes: [{ type, validator }],
 * headers: { validator, required, types } }`, with the schemas the validators are compiled from.
 */
export function documentedResponses(spec) {
  const found = [];
  const headerNames = new Map();
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method) || !operation?.operationId) continue;
      const base = `#/paths/${escapePointer(path)}/${method}/responses`;
      for (const [status, raw] of Object.entries(operation.responses ?? {})) {
        const { node: response, pointer } = deref(spec, raw, `${base}/${escapePointer(status)}`);
        const contentTypes = Object.entries(response.content ?? {}).map(([type, media], index) => {
          if (!media.schema) return { type, validator: null, schemaRef: null };
          // A shared schema (Problem) gets one validator, named after it, not one copy per status.
          const target = deref(spec, media.schema, `${pointer}/content/${escapePointer(type)}/schema`).pointer;
          const component = target.match(/^#\/components\/schemas\/([A-Za-z0-9_]+)$/)?.[1];
          return {
            type,
            validator: component ? `body${component}` : exportName(operation.operationId, status, 'Body', index),
            schemaRef: `${BUNDLE_ID}${target}`,
          };
        });
        const properties = {};
        const required = [];
        const types = {};
        for (const [name, rawHeader] of Object.entries(response.headers ?? {})) {
          const { node: header, pointer: headerPointer } = deref(spec, rawHeader, `${pointer}/headers/${escapePointer(name)}`);
          const lower = name.toLowerCase();
          // Content-Type is described by `content`, never by a header object (OpenAPI ignores it).
          if (lower === 'content-type' || !header.schema) continue;
          properties[lower] = { $ref: `${BUNDLE_ID}${headerPointer}/schema` };
          if (header.required) required.push(lower);
          const schema = deref(spec, header.schema, `${headerPointer}/schema`).node;
          if (schema.type === 'integer' || schema.type === 'number') types[lower] = schema.type;
        }
        const headerSchema = { type: 'object', properties, required };
        // Responses with the same header set (most error statuses) share one validator.
        const key = JSON.stringify(headerSchema);
        if (!headerNames.has(key)) headerNames.set(key, `headers${headerNames.size + 1}`);
        found.push({ operationId: operation.operationId, status, contentTypes, headers: { validator: headerNames.get(key), schema: headerSchema, required, types } });
      }
    }
  }
  return found;
}

/** Returns the source of response-validators.js. */
export async function responseValidatorSource(fullSpec) {
  const spec = withoutDocs(fullSpec);
  const responses = documentedResponses(spec);
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    code: { source: true, esm: true, lines: true },
    logger: { log() {}, warn: (message) => { throw new Error(`Ajv: ${message}`); }, error: (message) => { throw new Error(`Ajv: ${message}`); } },
  });
  addFormats(ajv);
  // ajv-formats checks date-time with a function (calendar and leap-second rules) that standalone
  // code cannot carry without Ajv; an RFC 3339 regex is emitted as a literal. The fields that use it
  // (created_at) carry their own stricter pattern anyway.
  ajv.addFormat('date-time', RFC3339_DATE_TIME);
  ajv.addSchema(spec, BUNDLE_ID);
  const refs = {};
  for (const response of responses) {
    for (const media of response.contentTypes) if (media.validator) refs[media.validator] = media.schemaRef;
    if (refs[response.headers.validator]) continue;
    ajv.addSchema({ $id: response.headers.validator, ...response.headers.schema });
    refs[response.headers.validator] = response.headers.validator;
  }
  const table = {};
  for (const r of responses) {
    (table[r.operationId] ??= {})[r.status] = `{ contentTypes: { ${r.contentTypes
      .map((m) => `${JSON.stringify(m.type)}: ${m.validator ?? 'null'}`)
      .join(', ')} }, headers: ${r.headers.validator}, requiredHeaders: ${JSON.stringify(r.headers.required)}, headerTypes: ${JSON.stringify(r.headers.types)} }`;
  }
  const tableSource = Object.entries(table)
    .map(([op, statuses]) => `  ${op}: {\n${Object.entries(statuses).map(([s, v]) => `    ${JSON.stringify(s)}: ${v},`).join('\n')}\n  },`)
    .join('\n');
  return `${inlineRuntimeHelpers(standaloneCode(ajv, refs))}
/** Per operationId and documented status: body validator per media type, header validator, header facts. */
export const responseContract = {
${tableSource}
};
`;
}

export const RESPONSE_VALIDATOR_TYPES = `import type { GeneratedValidator } from './validators.js';
export interface DocumentedResponse {
  /** Media type (no parameters) → validator of the body, or null when the contract gives no schema. */
  contentTypes: Record<string, GeneratedValidator | null>;
  /** Validates the response headers as one object with lower-case names (values already converted to numbers where the schema says integer/number). */
  headers: GeneratedValidator;
  /** Lower-case names of the headers the contract requires. */
  requiredHeaders: readonly string[];
  /** Lower-case header name → JSON type, for the headers that are not strings. */
  headerTypes: Readonly<Record<string, 'integer' | 'number'>>;
}
/** Per operationId, per documented status code (as written in the spec: "200", "4XX", "default"). */
export declare const responseContract: Readonly<Record<string, Readonly<Record<string, DocumentedResponse>>>>;
`;
