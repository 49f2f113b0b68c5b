// What src/generated/schema.ts declares, made publishable (issue 37): every declaration the package exports
// has a doc comment (api-extractor's `ae-undocumented` is an error, scripts/api-report.mjs), and no empty
// type is declared. openapi-typescript documents the members it has a description for; the rest is said
// here from the spec itself: each `rootTypes` alias (`PixKey = components['schemas']['PixKey']`) carries
// its component's description, and the top-level interfaces and their first-level members say what
// they hold. An empty type (`webhooks`, `$defs`: the contract has neither) is dropped, whatever its name.
import ts from 'typescript';

const SECTION_WORDS = {
  schemas: 'schema',
  responses: 'response',
  parameters: 'parameter',
  headers: 'header',
  requestBodies: 'request body',
  pathItems: 'path item',
};

const TOP_LEVEL = {
  paths:
    'Every path of the contract and the operation of each method (the type argument of openapi-fetch; `client.raw` is typed by it).',
  components:
    "The contract's reusable parts (schemas, responses, parameters, headers), as openapi-typescript generates them.",
  operations: 'Every operation of the contract by its operationId: parameters, request body and responses.',
};

/** A description on one line, safe inside a block comment. */
function oneLine(text) {
  return String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim()
    .replaceAll('*/', '*\\/');
}

function hasDoc(node) {
  return (ts.getSyntheticLeadingComments(node) ?? []).some((c) => c.text.startsWith('*'));
}

function document(node, text) {
  if (hasDoc(node)) return;
  ts.addSyntheticLeadingComment(node, ts.SyntaxKind.MultiLineCommentTrivia, `* ${text} `, true);
}

const nameOf = (node) =>
  node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) ? node.name.text : undefined;

/** A type alias of `Record<string, never>`: a map that can hold nothing. */
function isEmptyType(node) {
  if (!ts.isTypeAliasDeclaration(node) || !ts.isTypeReferenceNode(node.type)) return false;
  const [key, value] = node.type.typeArguments ?? [];
  return (
    ts.isIdentifier(node.type.typeName) &&
    node.type.typeName.text === 'Record' &&
    key?.kind === ts.SyntaxKind.StringKeyword &&
    value?.kind === ts.SyntaxKind.NeverKeyword
  );
}

/** `components['schemas']['PixKey']` -> ['schemas', 'PixKey'] (openapi-typescript writes the reference as one name). */
function componentOf(alias) {
  if (!ts.isTypeReferenceNode(alias.type) || !ts.isIdentifier(alias.type.typeName)) return undefined;
  const match = /^components\['(\w+)'\]\['([^']+)'\]$/.exec(alias.type.typeName.text);
  return match ? [match[1], match[2]] : undefined;
}

function operationSummary(spec, operationId) {
  for (const [path, item] of Object.entries(spec.paths ?? {}))
    for (const [method, operation] of Object.entries(item))
      if (operation && typeof operation === 'object' && operation.operationId === operationId)
        return `\`${method.toUpperCase()} ${path}\`: ${oneLine(operation.summary ?? operation.description).replace(/([^.])$/, '$1.')}`;
  return undefined;
}

/**
 * The generated statements without empty types, each exported declaration and each first-level member
 * of `paths`, `components` and `operations` documented.
 * @param {readonly ts.Node[]} ast what openapi-typescript returned
 * @param {any} spec the bundled spec it was generated from
 */
export function documentedSchema(ast, spec) {
  const kept = ast.filter((node) => !isEmptyType(node));
  for (const node of kept) {
    const name = nameOf(node);
    if (name === undefined) continue;
    if (ts.isInterfaceDeclaration(node) && TOP_LEVEL[name]) {
      document(node, TOP_LEVEL[name]);
      for (const member of node.members) {
        const key = nameOf(member);
        if (key === undefined) continue;
        if (name === 'paths') {
          const methods = Object.entries(spec.paths?.[key] ?? {})
            .filter(([, operation]) => operation && typeof operation === 'object' && operation.operationId)
            .map(([method, operation]) => `${method.toUpperCase()} (\`${operation.operationId}\`)`);
          document(member, `The path \`${key}\`: ${methods.join(', ')}.`);
        } else if (name === 'operations') {
          document(member, `The operation \`${key}\`, ${operationSummary(spec, key) ?? 'of the contract.'}`);
        } else {
          const count = Object.keys(spec.components?.[key] ?? {}).length;
          const word = SECTION_WORDS[key] ?? key;
          document(
            member,
            count === 0
              ? `The contract declares no ${word} component (\`never\`).`
              : `The contract's ${count} ${word} component(s), by name (\`components/${key}\`).`,
          );
        }
      }
    } else if (ts.isTypeAliasDeclaration(node)) {
      const component = componentOf(node);
      if (component === undefined) continue;
      const [section, key] = component;
      const description = oneLine(spec.components?.[section]?.[key]?.description);
      const word = SECTION_WORDS[section] ?? section;
      document(
        node,
        `The contract's \`${key}\` ${word} (\`components['${section}']['${key}']\`)${description ? `: ${description}` : '.'}`,
      );
    }
  }
  return kept;
}
