// The part of the bundled spec the sandbox reads (src/sandbox/spec.ts): each operation's parameters
// (a header's rules too) and documented responses with their examples, the Limit default, the key
// statuses and the kinds of key holder. Generated as a module so that the sandbox carries it in its
// code: a Worker has no files to read, and the whole spec in both builds would cost 120 kB of the tarball.
const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
const nameOf = (ref) => ref.slice(ref.lastIndexOf('/') + 1);

/** The trimmed document, in the bundled spec's own shape. */
export function sandboxSpec(bundled) {
  const examples = {};
  const keepExamples = (content) =>
    Object.fromEntries(
      Object.entries(content ?? {}).map(([media, { examples: named = {} }]) => {
        for (const { $ref } of Object.values(named))
          examples[nameOf($ref)] = { value: bundled.components.examples[nameOf($ref)].value };
        return [media, { examples: named }];
      }),
    );
  const responses = Object.fromEntries(
    Object.entries(bundled.components.responses ?? {}).map(([name, response]) => [
      name,
      { content: keepExamples(response.content) },
    ]),
  );
  const paths = Object.fromEntries(
    Object.entries(bundled.paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).flatMap(([method, operation]) => {
          if (method === 'parameters') return [[method, operation]];
          if (!METHODS.has(method)) return [];
          const kept = Object.fromEntries(
            Object.entries(operation.responses).map(([code, response]) => [
              code,
              response.$ref ? { $ref: response.$ref } : { content: keepExamples(response.content) },
            ]),
          );
          return [
            [
              method,
              {
                operationId: operation.operationId,
                ...(operation.parameters ? { parameters: operation.parameters } : {}),
                responses: kept,
              },
            ],
          ];
        }),
      ),
    ]),
  );
  const parameters = Object.fromEntries(
    Object.entries(bundled.components.parameters).map(([name, { name: n, in: where, explode, schema }]) => [
      name,
      // The type says whether a value is single (spec.ts); the default is the page size's. A header's
      // rules are checked by the sandbox itself (the generated validators cover queries and bodies).
      {
        name: n,
        in: where,
        ...(explode === undefined ? {} : { explode }),
        schema: {
          type: schema.type,
          ...(schema.default === undefined ? {} : { default: schema.default }),
          ...(where === 'header' ? { maxLength: schema.maxLength, pattern: schema.pattern } : {}),
        },
      },
    ]),
  );
  return {
    components: {
      parameters,
      examples,
      responses,
      schemas: {
        PixKey: {
          properties: { key_status: { examples: bundled.components.schemas.PixKey.properties.key_status.examples } },
        },
        // Each kind of holder is a branch with a constant document_type.
        BeneficiaryEntity: {
          oneOf: bundled.components.schemas.BeneficiaryEntity.oneOf.map((branch) => ({
            properties: { document_type: { const: branch.properties.document_type.const } },
          })),
        },
      },
    },
    paths,
  };
}

/**
 * The module's source: the document as a constant the sandbox casts to its own view of it. One JSON
 * text, not an object literal: the ESM build keeps it as it is, 7 kB smaller than an indented one (the
 * CommonJS build reads the shipped spec instead, scripts/lib/shared-generated.mjs).
 */
export const sandboxSpecSource = (bundled) =>
  '/** The part of openapi.json the sandbox reads (scripts/lib/sandbox-spec.mjs). */\n' +
  `export const SANDBOX_SPEC: unknown = JSON.parse(${JSON.stringify(JSON.stringify(sandboxSpec(bundled)))});\n`;
