// What the sandbox reads from the bundled spec rather than repeating: the default page size and the
// documented examples that `Prefer` can ask for.
import bundled from '../generated/openapi.json' with { type: 'json' };

interface SpecExample {
  value: unknown;
}
interface SpecDocument {
  components: {
    parameters: { Limit: { schema: { default: number } } };
    examples: Record<string, SpecExample>;
    responses: Record<string, { content: Record<string, { examples: Record<string, { $ref: string }> }> }>;
  };
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, { $ref?: string; content: Record<string, { examples: Record<string, { $ref: string }> }> }> }>>;
}

// Every documented response of the contract has a body with named examples, each a $ref to
// components/examples (the lint and test/spec/ keep it so); nothing here is optional.
// Imported, not read from disk: the bundler puts it in the sandbox's own code, so it is found from
// the ESM and the CommonJS build alike, wherever the chunk lands.
const spec = bundled as unknown as SpecDocument;

export const LIMIT_DEFAULT = spec.components.parameters.Limit.schema.default;

export type OperationId = 'updateNaturalPerson' | 'listPixKeys';

export interface DocumentedResponse {
  status: number;
  /** Example name → example value, in the spec's order. */
  examples: Map<string, unknown>;
}

const exampleName = (ref: string): string => ref.slice(ref.lastIndexOf('/') + 1);

function documented(operationId: OperationId): Map<number, DocumentedResponse> {
  const out = new Map<number, DocumentedResponse>();
  for (const item of Object.values(spec.paths)) {
    for (const operation of Object.values(item)) {
      if (operation.operationId !== operationId) continue;
      for (const [code, declared] of Object.entries(operation.responses)) {
        const response = declared.$ref ? spec.components.responses[exampleName(declared.$ref)]! : declared;
        const examples = new Map<string, unknown>();
        for (const media of Object.values(response.content)) {
          for (const [name, ref] of Object.entries(media.examples)) examples.set(name, spec.components.examples[exampleName(ref.$ref)]!.value);
        }
        out.set(Number(code), { status: Number(code), examples });
      }
    }
  }
  return out;
}

/** Every documented response of each operation, with its examples. */
export const DOCUMENTED: Record<OperationId, Map<number, DocumentedResponse>> = {
  updateNaturalPerson: documented('updateNaturalPerson'),
  listPixKeys: documented('listPixKeys'),
};
