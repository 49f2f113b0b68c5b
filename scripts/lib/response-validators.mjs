// Compiles every documented response of the bundled spec (each status of each operation: its body
// per media type, and its headers as one object) into standalone Ajv validators, plus a table that
// says, per operation and status, which media types and headers the contract documents. The output
// (response-validators.js) is loaded only when response validation is switched on, so it stays out
// of the client entry's import graph.
import standaloneCode from 'ajv/dist/standalone/index.js';
import { BUNDLE_ID, inlineRuntimeHelpers, standaloneAjv, withoutDocs } from './ajv-standalone.mjs';

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
  const ajv = standaloneAjv({ messages: true });
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
  return `${inlineRuntimeHelpers(standaloneCode(ajv, refs), 'response-validators.js')}
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
