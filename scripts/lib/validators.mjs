// Compiles the request schemas of the bundled spec into standalone Ajv validators: plain ESM with
// no `eval`/`new Function` at run time and no dependency on Ajv, so consumers ship only the code.
import standaloneCode from 'ajv/dist/standalone/index.js';
import { BUNDLE_ID, inlineRuntimeHelpers, standaloneAjv, withoutDocs } from './ajv-standalone.mjs';
import { listOperations } from './operations.mjs';

/**
 * One query validator (when the operation has query parameters), one header validator (when it has
 * header parameters) and one body validator (when it takes a JSON body) per operationId, found by
 * walking `paths`: `<operationId>Query`, `<operationId>Headers`, `<operationId>Body`.
 */
export function validatorsOf(spec) {
  return listOperations(spec).flatMap((op) => [
    ...(op.parameters.some((p) => p.in === 'query')
      ? [
          {
            name: `${op.operationId}Query`,
            operation: op,
            location: 'query',
            doc: `The query parameters of ${op.operationId}, as one object.`,
          },
        ]
      : []),
    ...(op.parameters.some((p) => p.in === 'header')
      ? [
          {
            name: `${op.operationId}Headers`,
            operation: op,
            location: 'header',
            doc: `The header parameters of ${op.operationId}, as one object keyed by the spec's header names.`,
          },
        ]
      : []),
    ...(op.body
      ? [
          {
            name: `${op.operationId}Body`,
            schemaPointer: op.body.schemaPointer,
            doc: `The ${op.body.mediaType} body of ${op.operationId}.`,
          },
        ]
      : []),
  ]);
}

/**
 * An object schema for an operation's query or headers. Each property is a `$ref` to the parameter's
 * own schema in the bundle, so patterns and bounds are never copied and any `$ref` inside them still
 * resolves against the bundle.
 */
function parametersSchema(operation, location, id) {
  const properties = {};
  const required = [];
  for (const parameter of operation.parameters) {
    if (parameter.in !== location) continue;
    properties[parameter.name] = { $ref: `${BUNDLE_ID}${parameter.pointer}/schema` };
    if (parameter.required) required.push(parameter.name);
  }
  return { $id: id, type: 'object', properties, required };
}

// Each error object Ajv emits names the schema keyword it came from (`schemaPath:"#/properties/…"`).
// The rules (src/validation/rules.ts) read only `keyword`, `params` and `instancePath`, so those
// strings are emptied rather than shipped: about 180 B gzip of the 12 kB entry budget.
const SCHEMA_PATH = /schemaPath:"(?:[^"\\]|\\.)*"/g;
const withoutSchemaPaths = (code) => code.replace(SCHEMA_PATH, 'schemaPath:""');

/** Returns the source of validators.js: one named export per request schema. */
export async function validatorSource(fullSpec) {
  const spec = withoutDocs(fullSpec);
  // The rules read keyword and params only (src/validation/rules.ts): Ajv's English messages need not ship.
  const ajv = standaloneAjv({ messages: false });
  ajv.addSchema(spec, BUNDLE_ID);
  const refs = {};
  for (const v of validatorsOf(spec)) {
    if (v.operation) {
      ajv.addSchema(parametersSchema(v.operation, v.location, v.name));
      refs[v.name] = v.name;
    } else {
      refs[v.name] = `${BUNDLE_ID}${v.schemaPointer}`;
    }
  }
  return `${withoutSchemaPaths(inlineRuntimeHelpers(standaloneCode(ajv, refs), 'validators.js'))}\n`;
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
${validatorsOf(withoutDocs(fullSpec))
  .map((v) => `/** ${v.doc} */\nexport declare const ${v.name}: GeneratedValidator;`)
  .join('\n')}
`;
