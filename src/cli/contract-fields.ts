// The fields the contract defines, read from the bundled spec: every property of a request body at any
// depth ($ref resolved) and every parameter. A 422's field at fault is named in the request log only
// when it is one of these; any other name came from the client's request and is not shown.
import { readBundledSpec } from '../shipped-files.js';

/** What the log shows for a field at fault that the contract does not define. */
export const UNKNOWN_FIELD = '(unknown field)';

interface SchemaNode {
  properties: Map<string, SchemaNode>;
  items: SchemaNode | undefined;
}

interface Schema {
  $ref?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
}

interface Parameter {
  $ref?: string;
  name?: string;
  in?: string;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { $ref?: string; content?: Record<string, { schema?: Schema }> };
}

export interface FieldsDocument {
  paths: Record<string, Record<string, Operation | Parameter[]>>;
}

/** What the contract defines, as the request log asks it. */
export interface ContractFields {
  /** A body field by its path from the body's root: its JSON pointer when the contract has it. */
  bodyField(segments: readonly string[]): string;
  /** A parameter (query or header) by name, any case: the spec's spelling when the contract has it. */
  parameterField(name: string): string;
}

const escapeSegment = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');

/** The body fields and parameters `spec` defines (an OpenAPI document whose $refs are all local). */
export function contractFields(spec: FieldsDocument): ContractFields {
  /** The object a local `$ref` (`#/components/...`) points to. */
  function resolve<T extends { $ref?: string }>(node: T): T {
    let current: T = node;
    // A $ref to a $ref: followed until a real node, at most 32 hops (a cycle of refs ends there).
    for (let hops = 0; current.$ref !== undefined && hops < 32; hops += 1) {
      let target: unknown = spec;
      for (const part of current.$ref.split('/').slice(1)) {
        target = (target as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
      }
      current = target as T;
    }
    return current;
  }

  // One node per schema object: a recursive schema becomes a cycle, not an endless walk.
  const built = new Map<Schema, SchemaNode>();

  function nodeOf(raw: Schema, into: SchemaNode = { properties: new Map(), items: undefined }): SchemaNode {
    const schema = resolve(raw);
    const seen = built.get(schema);
    if (seen) return merge(into, seen);
    built.set(schema, into);
    for (const [name, inner] of Object.entries(schema.properties ?? {})) {
      into.properties.set(name, nodeOf(inner, into.properties.get(name)));
    }
    if (schema.items) into.items = nodeOf(schema.items, into.items);
    for (const part of [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) nodeOf(part, into);
    return into;
  }

  // A schema met again: its fields join those already at this place (merging a node into itself
  // changes nothing).
  function merge(into: SchemaNode, from: SchemaNode): SchemaNode {
    for (const [name, inner] of from.properties) if (!into.properties.has(name)) into.properties.set(name, inner);
    into.items ??= from.items;
    return into;
  }

  const body: SchemaNode = { properties: new Map(), items: undefined };
  // Parameter name, lower-cased (Prism lower-cases query and header names) → the spec's spelling.
  const parameters = new Map<string, string>();
  let anyBody = false;
  for (const item of Object.values(spec.paths)) {
    for (const [key, value] of Object.entries(item)) {
      const list = key === 'parameters' ? (value as Parameter[]) : ((value as Operation).parameters ?? []);
      for (const declared of list) {
        const { name } = resolve(declared);
        if (name !== undefined) parameters.set(name.toLowerCase(), name);
      }
      // A path's own parameter list has no requestBody either.
      const requestBody = (value as Operation).requestBody;
      if (requestBody === undefined) continue;
      anyBody = true;
      for (const media of Object.values(resolve(requestBody).content ?? {}))
        if (media.schema) nodeOf(media.schema, body);
    }
  }

  return {
    bodyField(segments) {
      if (segments.length === 0) return anyBody ? 'body' : UNKNOWN_FIELD;
      let node: SchemaNode | undefined = body;
      for (const segment of segments) {
        node = /^(?:0|[1-9][0-9]{0,8})$/.test(segment) && node.items ? node.items : node.properties.get(segment);
        if (node === undefined) return UNKNOWN_FIELD;
      }
      return segments.map((segment) => `/${escapeSegment(segment)}`).join('');
    },
    parameterField(name) {
      return parameters.get(name.toLowerCase()) ?? UNKNOWN_FIELD;
    },
  };
}

/** The bundled spec's fields: what the request log names. */
export const { bodyField, parameterField } = contractFields(readBundledSpec() as FieldsDocument);
