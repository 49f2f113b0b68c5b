// What the sandbox reads from the bundled spec rather than repeating: the default page size and the
// documented examples that `Prefer` can ask for.
import type { OperationName } from '../generated/operations.js';
import { SANDBOX_SPEC } from '../generated/sandbox-spec.js';

interface SpecExample {
  value: unknown;
}
interface SpecParameter {
  name: string;
  in: string;
  explode?: boolean;
  schema: { type?: string; maxLength?: number; pattern?: string };
}
type ParameterOrRef = SpecParameter | { $ref: string };
interface SpecOperation {
  operationId: string;
  parameters?: ParameterOrRef[];
  responses: Record<
    string,
    { $ref?: string; content?: Record<string, { examples: Record<string, { $ref: string }> }> }
  >;
}
interface SpecDocument {
  components: {
    parameters: Record<string, SpecParameter> & {
      Limit: { schema: { default: number } };
      UserAgent: { name: string; schema: { maxLength: number; pattern: string } };
    };
    examples: Record<string, SpecExample>;
    responses: Record<string, { content?: Record<string, { examples: Record<string, { $ref: string }> }> }>;
    schemas: {
      PixKey: { properties: { key_status: { examples: string[] } } };
      BeneficiaryEntity: { oneOf: { properties: { document_type: { const: string } } }[] };
    };
  };
  paths: Record<string, Record<string, SpecOperation> & { parameters?: ParameterOrRef[] }>;
}

// Every documented response of the contract has a body with named examples, each a $ref to
// components/examples (the lint and test/spec/ keep it so); nothing here is optional.
// The part of the spec the sandbox reads, generated into its code: a Worker has no file to read.
const spec = SANDBOX_SPEC as SpecDocument;

export const LIMIT_DEFAULT = spec.components.parameters.Limit.schema.default;

export interface DocumentedResponse {
  status: number;
  /** Example name → example value, in the spec's order. */
  examples: Map<string, unknown>;
  /** False for a response documented without content (the update's 204). */
  hasBody: boolean;
}

const exampleName = (ref: string): string => ref.slice(ref.lastIndexOf('/') + 1);

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
const operationsOf = (item: SpecDocument['paths'][string]): SpecOperation[] =>
  Object.entries(item).flatMap(([method, operation]) => (METHODS.has(method) ? [operation as SpecOperation] : []));
const parameter = (declared: ParameterOrRef): SpecParameter =>
  '$ref' in declared ? spec.components.parameters[exampleName(declared.$ref)]! : declared;

function documented(operationId: OperationName): Map<number, DocumentedResponse> {
  const out = new Map<number, DocumentedResponse>();
  for (const item of Object.values(spec.paths)) {
    for (const operation of operationsOf(item)) {
      if (operation.operationId !== operationId) continue;
      for (const [code, declared] of Object.entries(operation.responses)) {
        const response = declared.$ref ? spec.components.responses[exampleName(declared.$ref)]! : declared;
        const examples = new Map<string, unknown>();
        // A response without content (the update's 204) has no media type and no examples.
        const content = response.content ?? {};
        for (const media of Object.values(content)) {
          for (const [name, ref] of Object.entries(media.examples))
            examples.set(name, spec.components.examples[exampleName(ref.$ref)]!.value);
        }
        out.set(Number(code), { status: Number(code), examples, hasBody: Object.keys(content).length > 0 });
      }
    }
  }
  return out;
}

/** Every documented response of each operation, with its examples. */
export const DOCUMENTED: Record<OperationName, Map<number, DocumentedResponse>> = {
  updateNaturalPerson: documented('updateNaturalPerson'),
  listPixKeys: documented('listPixKeys'),
};

/**
 * The query parameters of each operation that take one value: every one but an exploded array (the
 * form style's default for arrays, `?a=1&a=2`). None of the contract's is an array today.
 */
function singleValued(operationId: OperationName): string[] {
  const names: string[] = [];
  for (const item of Object.values(spec.paths)) {
    for (const operation of operationsOf(item)) {
      if (operation.operationId !== operationId) continue;
      for (const declared of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) {
        const { name, in: location, explode, schema } = parameter(declared);
        if (location === 'query' && !(schema.type === 'array' && explode !== false)) names.push(name);
      }
    }
  }
  return names;
}

/** Query parameters that a request may send once only: more than once is a 422 naming it. */
export const SINGLE_VALUED_QUERY: Record<OperationName, readonly string[]> = {
  updateNaturalPerson: singleValued('updateNaturalPerson'),
  listPixKeys: singleValued('listPixKeys'),
};

/** The key statuses the contract names (`key_status` examples), the one the service shows first. */
export const KEY_STATUSES: readonly string[] = spec.components.schemas.PixKey.properties.key_status.examples;

/** The kinds of beneficiary entity the contract allows: the `document_type` of each branch of `BeneficiaryEntity`. */
export const DOCUMENT_TYPES: readonly string[] = spec.components.schemas.BeneficiaryEntity.oneOf.map(
  (branch) => branch.properties.document_type.const,
);

const userAgent = spec.components.parameters.UserAgent;
/** The `User-Agent` header's rules: its name, most characters, and the pattern (printable ASCII, a visible first character). */
export const USER_AGENT = {
  name: userAgent.name,
  maxLength: userAgent.schema.maxLength,
  // As Ajv reads a pattern: with the `u` flag.
  pattern: new RegExp(userAgent.schema.pattern, 'u'),
} as const;
