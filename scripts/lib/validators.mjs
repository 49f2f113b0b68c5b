// Compiles the request schemas of the bundled spec into standalone Ajv validators: plain ESM with
// no `eval`/`new Function` at run time and no dependency on Ajv, so consumers ship only the code.
import { build } from 'esbuild';
import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormats from 'ajv-formats';

const BUNDLE_ID = 'https://baas-pix-contract.local/openapi.json';

/** An object schema for an operation's query, built from its parameter definitions in the spec. */
function querySchema(spec, path, method, id) {
  const deref = (node) => (node.$ref ? node.$ref.replace(/^#\//, '').split('/').reduce((acc, key) => acc[key], spec) : node);
  const properties = {};
  const required = [];
  for (const ref of spec.paths[path][method].parameters ?? []) {
    const parameter = deref(ref);
    if (parameter.in !== 'query') continue;
    properties[parameter.name] = { $ref: `${BUNDLE_ID}#/components/parameters/${ref.$ref.split('/').pop()}/schema` };
    if (parameter.required) required.push(parameter.name);
  }
  return { $id: id, type: 'object', properties, required };
}

const DOC_KEYWORDS = new Set(['description', 'examples', 'example', 'title', 'summary', 'x-assumption', 'x-assumptions']);

/** The spec without documentation keywords, which the validators would otherwise embed as dead weight. */
function withoutDocs(node, parentKey) {
  if (Array.isArray(node)) return node.map((item) => withoutDocs(item));
  if (!node || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    // Under `properties` the keys are field names (Problem has a field called `title`), not keywords.
    if (parentKey !== 'properties' && DOC_KEYWORDS.has(key)) continue;
    out[key] = withoutDocs(value, key);
  }
  return out;
}

export const VALIDATOR_NAMES = ['naturalPersonUpdate', 'updateNaturalPersonQuery', 'listPixKeysQuery'];

/** Returns the source of validators.js: one named export per request schema. */
export async function validatorSource(fullSpec) {
  const spec = withoutDocs(fullSpec);
  const ajv = new Ajv2020({ allErrors: true, strict: false, code: { source: true, esm: true, lines: true } });
  addFormats(ajv, ['email']);
  ajv.addSchema(spec, BUNDLE_ID);
  ajv.addSchema(querySchema(spec, '/v2/api/baas-onboarding/account/natural-person', 'put', 'updateNaturalPersonQuery'));
  ajv.addSchema(querySchema(spec, '/v2/api/pix/keys/list-keys', 'get', 'listPixKeysQuery'));
  const code = standaloneCode(ajv, {
    naturalPersonUpdate: `${BUNDLE_ID}#/components/schemas/NaturalPersonUpdate`,
    updateNaturalPersonQuery: 'updateNaturalPersonQuery',
    listPixKeysQuery: 'listPixKeysQuery',
  });
  // Inline the few Ajv runtime helpers the code requires (string length, e-mail format).
  const bundled = await build({
    stdin: { contents: code, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  return bundled.outputFiles[0].text;
}

export const VALIDATOR_TYPES = `export interface GeneratedValidatorError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, any>;
  message?: string;
}
export interface GeneratedValidator {
  (data: unknown): boolean;
  errors?: GeneratedValidatorError[] | null;
}
${VALIDATOR_NAMES.map((name) => `export declare const ${name}: GeneratedValidator;`).join('\n')}
`;
