// Open enums in the generated types. The spec writes a list that new values may join (PixKeyType: the
// five regulated key types, and any other lower-case word) as `anyOf: [{ $ref: <an enum> }, { type:
// string }]`, which openapi-typescript types `Known | string`: TypeScript folds that into plain `string`,
// so an editor offers no value and nothing narrows. `Known | (string & {})` accepts the same strings
// but keeps the known ones visible (completion, narrowing). Any schema of that shape gets it, so a new
// open enum of the spec needs nothing here.
// The other half: a branch of an object's anyOf that narrows a member to "a string other than the known
// ones" (`type: string, not: { enum }`, PixKey's key of a type not known yet). TypeScript cannot say
// "a string but not these", and the `string` openapi-typescript writes there would fold the member's
// open enum back into plain string when the branch is intersected with the object. The object itself
// already types the member, so the branch adds `unknown` (nothing) to it.
import { oapiRef, STRING, tsIntersection, tsUnion, UNKNOWN } from 'openapi-typescript';
import ts from 'typescript';

/** The schema `#/components/schemas/<name>` points to in `spec`, if any. */
function target(spec, ref) {
  const match = /^#\/components\/schemas\/([^/]+)$/.exec(ref);
  return match ? spec.components?.schemas?.[match[1]] : undefined;
}

/** An openapi-typescript `transform` option: `Known | (string & {})` for each open enum of `spec`. */
export const openEnums =
  (spec) =>
  (schema, { path }) => {
    if (schema?.type === 'string' && Array.isArray(schema.not?.enum) && /\/anyOf\/\d+\//.test(path ?? ''))
      return UNKNOWN;
    const branches = schema?.anyOf;
    if (!Array.isArray(branches) || branches.length !== 2) return undefined;
    const known = branches.find(
      (branch) => typeof branch.$ref === 'string' && Array.isArray(target(spec, branch.$ref)?.enum),
    );
    const other = branches.find(
      (branch) => branch.type === 'string' && branch.enum === undefined && branch.const === undefined,
    );
    if (!known || !other) return undefined;
    return tsUnion([oapiRef(known.$ref), tsIntersection([STRING, ts.factory.createTypeLiteralNode([])])]);
  };
