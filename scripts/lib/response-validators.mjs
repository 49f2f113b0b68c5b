// Compiles every documented response of the bundled spec (each status of each operation: its body
// per media type, and its headers as one object) into standalone Ajv validators, plus a table that
// says, per operation and status, which media types and headers the contract documents. The output
// (response-validators.js) is loaded only when response validation is switched on, so it stays out
// of the client entry's import graph.
import standaloneCode from 'ajv/dist/standalone/index.js';
import {
  BUNDLE_ID,
  UTF16_LENGTH_HELPERS,
  inlineRuntimeHelpers,
  standaloneAjv,
  withoutDocs,
} from './ajv-standalone.mjs';

const METHODS = new Set(['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace']);

const escapePointer = (segment) => String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
const unescapePointer = (segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~');
const resolvePointer = (spec, pointer) =>
  pointer
    .replace(/^#\//, '')
    .split('/')
    .map(unescapePointer)
    .reduce((node, key) => node?.[key], spec);

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
          const { node: header, pointer: headerPointer } = deref(
            spec,
            rawHeader,
            `${pointer}/headers/${escapePointer(name)}`,
          );
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
        found.push({
          operationId: operation.operationId,
          status,
          contentTypes,
          headers: { validator: headerNames.get(key), schema: headerSchema, required, types },
        });
      }
    }
  }
  return found;
}

// Formats whose regexes match only ASCII (so UTF-16 length and code points agree on what they accept).
const ASCII_FORMATS = new Set(['uuid', 'date-time', 'date', 'time', 'email', 'int32', 'int64']);

/**
 * True when every string the pattern accepts is ASCII: no negated class, no `.`, no `\D`/`\S`/`\W`/
 * `\p`, no code-point escapes, no literal non-ASCII. Conservative: false means "not proven".
 */
export function asciiOnlyPattern(pattern) {
  const rest = pattern.replace(/\\[dw]|\\x[0-7][0-9A-Fa-f]/g, '').replace(/\\[-\\^$.*+?()[\]{}|/]/g, '');
  return !/[^\x20-\x7e]|\\|\.|\[\^/.test(rest);
}

/**
 * The schema for the yes/no fast path, which counts string lengths in UTF-16 units: a `minLength`
 * above 1 on a string that may hold astral characters becomes `2 × minLength − 1` (UTF-16 units
 * that guarantee `minLength` code points), so the fast path never accepts what the full check
 * rejects. It may reject more; those responses simply get the full check.
 */
export function fastPathSchema(node) {
  if (Array.isArray(node)) return node.map(fastPathSchema);
  if (!node || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) out[key] = fastPathSchema(value);
  const ascii =
    (typeof node.pattern === 'string' && asciiOnlyPattern(node.pattern)) ||
    ASCII_FORMATS.has(node.format) ||
    Array.isArray(node.enum) ||
    node.const !== undefined;
  if (typeof node.minLength === 'number' && node.minLength > 1 && !ascii) out.minLength = 2 * node.minLength - 1;
  return out;
}

/**
 * Standalone code for one set of validators, compiled from `spec` with the given Ajv. Each export
 * is named in `refs`; `wrap` puts a second set in a scope of its own (Ajv numbers its functions
 * and constants from 1 in each run, so two sets in one module would collide).
 */
function compiled(spec, responses, ajv, helpers, wrap) {
  ajv.addSchema(spec, BUNDLE_ID);
  const refs = {};
  for (const response of responses) {
    for (const media of response.contentTypes) if (media.validator) refs[media.validator] = media.schemaRef;
    if (refs[response.headers.validator]) continue;
    ajv.addSchema({ $id: response.headers.validator, ...response.headers.schema });
    refs[response.headers.validator] = response.headers.validator;
  }
  const code = inlineRuntimeHelpers(standaloneCode(ajv, refs), 'response-validators.js', helpers);
  if (!wrap) return code;
  const names = [];
  const body = code
    .replace(/^"use strict";\n/m, '')
    .replace(/^export const (\w+) = (validate\d+);\n/gm, (_, name, fn) => {
      names.push(`${name}: ${fn}`);
      return '';
    });
  return `const ${wrap} = (() => {\n${body}\nreturn { ${names.join(', ')} };\n})();\n`;
}

/** Returns the source of response-validators.js. */
export async function responseValidatorSource(fullSpec) {
  const spec = withoutDocs(fullSpec);
  const responses = documentedResponses(spec);
  // Two sets from the same schemas: the full one (every error, with messages) says what is wrong;
  // the fast one (first error, UTF-16 lengths) only says whether anything is, and lets a valid
  // response through at a fraction of the cost.
  const full = compiled(spec, responses, standaloneAjv({ messages: true }));
  const fast = compiled(
    fastPathSchema(spec),
    responses,
    standaloneAjv({ messages: false, allErrors: false }),
    UTF16_LENGTH_HELPERS,
    'fast',
  );
  const table = {};
  for (const r of responses) {
    table[r.operationId] ??= {};
    table[r.operationId][r.status] = `{ contentTypes: { ${r.contentTypes
      .map((m) => `${JSON.stringify(m.type)}: ${m.validator ?? 'null'}`)
      .join(', ')} }, fastContentTypes: { ${r.contentTypes
      .map((m) => `${JSON.stringify(m.type)}: ${m.validator ? `fast.${m.validator}` : 'null'}`)
      .join(
        ', ',
      )} }, headers: ${r.headers.validator}, fastHeaders: fast.${r.headers.validator}, requiredHeaders: ${JSON.stringify(r.headers.required)}, headerTypes: ${JSON.stringify(r.headers.types)} }`;
  }
  const tableSource = Object.entries(table)
    .map(
      ([op, statuses]) =>
        `  ${op}: {\n${Object.entries(statuses)
          .map(([s, v]) => `    ${JSON.stringify(s)}: ${v},`)
          .join('\n')}\n  },`,
    )
    .join('\n');
  return `${full}
${fast}
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
  /** The same, as yes/no checks that stop at the first error: only a \`false\` needs the full validator. */
  fastContentTypes: Record<string, GeneratedValidator | null>;
  /** Validates the response headers as one object with lower-case names (values already converted to numbers where the schema says integer/number). */
  headers: GeneratedValidator;
  /** The header validator's yes/no fast path. */
  fastHeaders: GeneratedValidator;
  /** Lower-case names of the headers the contract requires. */
  requiredHeaders: readonly string[];
  /** Lower-case header name → JSON type, for the headers that are not strings. */
  headerTypes: Readonly<Record<string, 'integer' | 'number'>>;
}
/** Per operationId, per documented status code (as written in the spec: "200", "4XX", "default"). */
export declare const responseContract: Readonly<Record<string, Readonly<Record<string, DocumentedResponse>>>>;
`;
