// Walks the bundled spec's `paths` once: every operation with its operationId, method, path,
// parameters (path-level ones overridden by the operation's own) and JSON request body. The
// validators and the generated operation table are both built from this one list.
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

export const escapePointer = (segment) => String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
const unescapePointer = (segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~');
export const resolvePointer = (spec, pointer) =>
  pointer
    .replace(/^#\//, '')
    .split('/')
    .map(unescapePointer)
    .reduce((node, key) => node?.[key], spec);

/** A node, following `$ref`s inside the same document; with the pointer where it was found. */
function located(spec, node, pointer) {
  let current = { node, pointer };
  for (let hops = 0; hops < 10 && typeof current.node?.$ref === 'string'; hops += 1) {
    current = { node: resolvePointer(spec, current.node.$ref), pointer: current.node.$ref };
  }
  return current;
}

/**
 * @returns {{ operationId: string, method: string, path: string, pointer: string,
 *   parameters: { name: string, in: string, required: boolean, pointer: string }[],
 *   body: { required: boolean, mediaType: string, schemaPointer: string } | undefined,
 *   statuses: number[] }[]}
 */
export function listOperations(spec) {
  const found = [];
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    const pathPointer = `#/paths/${escapePointer(path)}`;
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      if (!operation.operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      const pointer = `${pathPointer}/${method}`;
      // OpenAPI: operation parameters override path-level ones with the same name and location.
      const byKey = new Map();
      const collect = (list, base) =>
        (list ?? []).forEach((node, index) => {
          const { node: parameter, pointer: at } = located(spec, node, `${base}/parameters/${index}`);
          byKey.set(`${parameter.in}:${parameter.name}`, {
            name: parameter.name,
            in: parameter.in,
            required: parameter.required === true,
            pointer: at,
          });
        });
      collect(item.parameters, pathPointer);
      collect(operation.parameters, pointer);
      let body;
      if (operation.requestBody) {
        const { node: requestBody, pointer: at } = located(spec, operation.requestBody, `${pointer}/requestBody`);
        const mediaType = Object.keys(requestBody.content ?? {}).find((type) => /json/i.test(type));
        if (mediaType)
          body = {
            required: requestBody.required === true,
            mediaType,
            schemaPointer: `${at}/content/${escapePointer(mediaType)}/schema`,
          };
      }
      const statuses = Object.keys(operation.responses ?? {})
        .filter((s) => /^[0-9]{3}$/.test(s))
        .map(Number);
      found.push({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path,
        pointer,
        parameters: [...byKey.values()],
        body,
        statuses,
      });
    }
  }
  const ids = found.map((o) => o.operationId);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) throw new Error(`operationId ${duplicate} is used twice`);
  return found;
}

const pascal = (id) => id[0].toUpperCase() + id.slice(1);

/** src/generated/operations.ts: the operation table and the per-operation parameter types. */
export function operationsSource(spec) {
  const list = listOperations(spec);
  const entries = list.map((op) => {
    const params = (location) =>
      `[${op.parameters
        .filter((p) => p.in === location)
        .map((p) => `{ name: ${JSON.stringify(p.name)}, required: ${p.required} }`)
        .join(', ')}]`;
    return [
      `  ${op.operationId}: {`,
      `    method: ${JSON.stringify(op.method)},`,
      `    path: ${JSON.stringify(op.path)},`,
      `    query: ${params('query')},`,
      `    header: ${params('header')},`,
      `    pathParams: ${params('path')},`,
      `    body: ${op.body ? JSON.stringify(op.body.mediaType) : 'undefined'},`,
      '  },',
    ].join('\n');
  });
  const types = list.flatMap((op) => [
    `/** The query parameters of ${op.operationId}, as one object. */`,
    `export type ${pascal(op.operationId)}Query = NonNullable<Operations['${op.operationId}']['parameters']['query']>;`,
  ]);
  return `import type { operations as Operations } from './schema.js';

/** Every operation of the spec: operationId → method, path, parameters, request media type. */
export const operations = {
${entries.join('\n')}
} as const satisfies Record<OperationName, unknown>;

/** The documented statuses of each operation (apart, so a bundle that does not use them drops them). */
export const operationStatuses = {
${list.map((op) => `  ${op.operationId}: [${op.statuses.join(', ')}],`).join('\n')}
} as const;

/**
 * An operationId of the spec. Named from the generated \`operations\` types, which the package exports,
 * so that a declaration of it never points at this table (a value the package does not export).
 */
export type OperationName = keyof Operations;
export type Operation = (typeof operations)[OperationName];
/** The operationIds of the contract, in the spec's order: for code over every operation (a metrics label set, a test matrix). */
export const operationNames = Object.keys(operations) as OperationName[];

${types.join('\n')}
`;
}
