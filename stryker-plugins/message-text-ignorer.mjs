// A StrykerJS ignorer: mutants that only change the words of a message or of the help are ignored, with
// the test that pins that format once as the reason. Tests elsewhere assert the error's class and kind,
// the field named and the value not shown, so such a mutant would otherwise survive for no good reason.
// What stays mutated: one-word literals (field, header, option and problem-type names, JSON keys), every
// literal outside a message, and any template whose placeholders hold logic (a condition, an optional
// chain, a method StrykerJS mutates), since ignoring a node ignores everything inside it.
//
// StrykerJS lives in the tool cache (tools/stryker, scripts/lib/tools.mjs), out of the repository's
// node_modules, so this file imports nothing from it: the plugin's declaration is the plain object that
// `declareValuePlugin(PluginKind.Ignore, …)` of @stryker-mutator/api/plugin returns.

/** Where each part of src/ pins its message formats word for word; the longest matching prefix wins. */
export const PINNED_IN = {
  'src/': 'test/client/errors.test.ts',
  'src/auth/': 'test/auth/options.test.ts',
  'src/cli/': 'test/cli/help.test.ts',
  'src/client/options.ts': 'test/client/option-checks.test.ts',
  'src/drift/': 'test/drift/check-answer.test.ts',
  'src/logging/': 'test/logging/messages.test.ts',
  'src/sandbox/': 'test/sandbox/answers.test.ts',
  'src/testing/': 'test/testing/mock.matrix.test.ts',
  'src/tls/': 'test/tls/options.test.ts',
  'src/verify/': 'test/drift/verify-options.test.ts',
};

// The methods StrykerJS's MethodExpression mutator swaps or drops: inside a message they may shorten or
// widen what is shown (a `slice` of a value), so a template calling one stays mutated.
const MUTATED_METHODS = new Set(['charAt', 'endsWith', 'startsWith', 'every', 'some', 'filter', 'reverse', 'slice', 'sort', 'substr', 'substring', 'toLocaleLowerCase', 'toLocaleUpperCase', 'toLowerCase', 'toUpperCase', 'trim', 'trimEnd', 'trimStart', 'min', 'max']);

/** The test that pins the messages of this file, from its path relative to the project. */
export function pinnedIn(fileName) {
  const file = String(fileName ?? '').split('\\').join('/');
  let best = '';
  for (const prefix of Object.keys(PINNED_IN)) {
    const at = file.lastIndexOf(prefix);
    // Absolute paths: the prefix must start a path segment.
    if (at >= 0 && (at === 0 || file[at - 1] === '/') && prefix.length > best.length) best = prefix;
  }
  return best ? PINNED_IN[best] : PINNED_IN['src/'];
}

/** True for an expression with nothing StrykerJS would mutate but the literals in it. */
function inert(node) {
  if (!node) return true;
  switch (node.type) {
    case 'Identifier':
    case 'ThisExpression':
    case 'NumericLiteral':
    case 'StringLiteral':
      return true;
    case 'TemplateLiteral':
      return node.expressions.every(inert);
    case 'MemberExpression':
      return inert(node.object) && (!node.computed || inert(node.property));
    case 'TSAsExpression':
    case 'TSNonNullExpression':
    case 'ParenthesizedExpression':
      return inert(node.expression);
    case 'CallExpression': {
      const callee = node.callee;
      const method = callee.type === 'MemberExpression' && !callee.computed ? callee.property.name : undefined;
      if (method !== undefined && MUTATED_METHODS.has(method)) return false;
      return (callee.type === 'Identifier' || (callee.type === 'MemberExpression' && inert(callee))) && node.arguments.every(inert);
    }
    default:
      return false;
  }
}

/** The words of a literal, placeholders left out: prose has two or more, a name has one. */
function isProse(node) {
  const text = node.type === 'StringLiteral' ? node.value : node.quasis.map((q) => q.value.cooked ?? q.value.raw).join(' ');
  return text.trim().split(/\s+/).filter(Boolean).length >= 2;
}

const isHelpCall = (node) => node?.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'defineCommand';
const keyName = (property) => (property.key.type === 'Identifier' ? property.key.name : property.key.value);

/** True when the value at `path` ends up as the message of an error or as help text. */
function inMessage(path) {
  let child = path;
  let parent = path.parentPath;
  // Climb through what only assembles text: a template's placeholder, either branch of a condition,
  // `+`, `??` / `||`'s fallback, casts and parentheses.
  for (;;) {
    if (!parent) return false;
    const p = parent.node;
    const climbs =
      (p.type === 'TemplateLiteral' && child.listKey === 'expressions') ||
      (p.type === 'ConditionalExpression' && child.key !== 'test') ||
      (p.type === 'BinaryExpression' && p.operator === '+') ||
      (p.type === 'LogicalExpression' && child.key === 'right') ||
      p.type === 'TSAsExpression' ||
      p.type === 'ParenthesizedExpression';
    if (!climbs) break;
    child = parent;
    parent = parent.parentPath;
  }
  const p = parent.node;
  // `new SomeError(message, …)`: the first argument of a constructor whose name ends in Error.
  if (p.type === 'NewExpression' && child.listKey === 'arguments' && child.key === 0) {
    return p.callee.type === 'Identifier' && /Error$/.test(p.callee.name);
  }
  // A flag's `help: [...]` lines and a command's `notes: [...]`, wherever the flag is declared (src/cli/flags.ts
  // shares some): the help text, pinned whole in help.test.ts (`usage` and `value` name the flags, so they stay).
  const property = p.type === 'ArrayExpression' ? parent.parentPath?.node : p;
  if (property?.type !== 'ObjectProperty' || property.computed) return false;
  const name = keyName(property);
  if (p.type === 'ArrayExpression') return name === 'help' || name === 'notes';
  // `defineCommand({ summary })`: the one-line summary of the command list.
  const object = parent.parentPath;
  return name === 'summary' && isHelpCall(object?.parentPath?.node);
}

export const messageTextIgnorer = {
  shouldIgnore(path) {
    const node = path.node;
    if (node.type !== 'StringLiteral' && node.type !== 'TemplateLiteral') return undefined;
    if (node.type === 'TemplateLiteral' && !node.expressions.every(inert)) return undefined;
    if (!isProse(node) || !inMessage(path)) return undefined;
    return `message text: its format is pinned once in ${pinnedIn(path.hub?.file?.opts?.filename)}`;
  },
};

export const strykerPlugins = [{ kind: 'Ignore', name: 'message-text', value: messageTextIgnorer }];
