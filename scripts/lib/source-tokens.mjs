// The tokens of a TypeScript or JavaScript source, for the checks that read the repository's code
// (test/meta/prose.test.ts through prose-count.mjs): strings, templates, regular expressions, names,
// numbers and punctuation, each with its line, comments left out. A lexer, not a parser: it loads in
// no time, where the TypeScript compiler took 1.6 s to import. A `/` is a regular expression where an
// expression may start (after an operator, an opening bracket, a comma, a keyword such as `return`),
// a division after a value (a name, a number, a literal, `)` or `]`).

/** @typedef {{ type: 'string' | 'template' | 'regex' | 'name' | 'number' | 'punct', text: string, value?: string, line: number, start: number, end: number }} Token */

const KEYWORDS_BEFORE_EXPRESSION = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'await',
  'yield',
]);
const NAME_START = /[A-Za-z_$\u0080-\uffff]/;
const NAME_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
const PUNCTUATORS = [
  '>>>=',
  '...',
  '===',
  '!==',
  '**=',
  '<<=',
  '>>=',
  '>>>',
  '&&=',
  '||=',
  '??=',
  '=>',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '?.',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '**',
  '<<',
  '>>',
];

const ESCAPES = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', 0: '\0' };

/** A string literal's value, its escapes read (enough for counting words and matching text). */
function cooked(body) {
  return body.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r?\n|.)/gs, (_, sequence) => {
    if (sequence[0] === 'u' || sequence[0] === 'x')
      return String.fromCodePoint(Number.parseInt(sequence.replace(/^u\{?|^x|\}$/g, ''), 16));
    if (sequence === '\n' || sequence === '\r\n') return '';
    return ESCAPES[sequence] ?? sequence;
  });
}

/** Every token of `text`. */
export function tokenize(text) {
  /** @type {Token[]} */
  const tokens = [];
  // The token literal is the caller's own: set its place on it rather than copy it (a copy per token was
  // most of the tokenizer's time over src/ and the guides).
  const push = (token, start, end) => {
    token.start = start;
    token.end = end;
    tokens.push(token);
  };
  let i = 0;
  let line = 1;
  const count = (from, to) => {
    for (let k = from; k < to; k++) if (text.charCodeAt(k) === 10) line += 1;
  };
  const regexAllowed = () => {
    const last = tokens.at(-1);
    if (!last) return true;
    if (last.type === 'name') return KEYWORDS_BEFORE_EXPRESSION.has(last.text);
    // TypeScript's non-null `x! / y` is a value; `!x` starts one.
    if (last.text === '!') {
      const value = tokens.at(-2);
      return (
        !value ||
        !(value.type !== 'punct' ? !KEYWORDS_BEFORE_EXPRESSION.has(value.text) : [')', ']'].includes(value.text))
      );
    }
    if (last.type === 'punct') return ![')', ']', '}'].includes(last.text);
    return false;
  };
  /** The end of a template starting at `start` (its backtick), nested templates and `${…}` included. */
  const templateEnd = (start) => {
    let k = start + 1;
    while (k < text.length) {
      const c = text[k];
      if (c === '\\') k += 2;
      else if (c === '`') return k + 1;
      else if (c === '$' && text[k + 1] === '{') {
        k = expressionEnd(k + 2);
      } else k += 1;
    }
    return k;
  };
  /** The index after the `}` closing a template's `${`, from just inside it. */
  const expressionEnd = (start) => {
    let depth = 1;
    let k = start;
    while (k < text.length && depth > 0) {
      const c = text[k];
      if (c === '`') k = templateEnd(k);
      else if (c === "'" || c === '"') k = stringEnd(k);
      else {
        if (c === '{') depth += 1;
        else if (c === '}') depth -= 1;
        k += 1;
      }
    }
    return k;
  };
  const stringEnd = (start) => {
    const quote = text[start];
    let k = start + 1;
    while (k < text.length && text[k] !== quote && text[k] !== '\n') k += text[k] === '\\' ? 2 : 1;
    return k + 1;
  };
  while (i < text.length) {
    const c = text[i];
    const startLine = line;
    if (c === '\n' || c === ' ' || c === '\t' || c === '\r' || c === '\uFEFF') {
      if (c === '\n') line += 1;
      i += 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i += 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      count(i, stop);
      i = stop;
    } else if (c === "'" || c === '"') {
      const end = stringEnd(i);
      push({ type: 'string', text: text.slice(i, end), value: cooked(text.slice(i + 1, end - 1)), line }, i, end);
      i = end;
    } else if (c === '`') {
      const end = templateEnd(i);
      const raw = text.slice(i, end);
      push({ type: 'template', text: raw, line: startLine }, i, end);
      count(i, end);
      i = end;
    } else if (c === '/' && regexAllowed()) {
      let k = i + 1;
      let inClass = false;
      while (k < text.length && text[k] !== '\n') {
        if (text[k] === '\\') k += 2;
        else if (text[k] === '/' && !inClass) break;
        else {
          if (text[k] === '[') inClass = true;
          else if (text[k] === ']') inClass = false;
          k += 1;
        }
      }
      k += 1;
      while (k < text.length && NAME_PART.test(text[k])) k += 1;
      push({ type: 'regex', text: text.slice(i, k), line }, i, k);
      i = k;
    } else if (NAME_START.test(c) || (c === '#' && NAME_START.test(text[i + 1] ?? ''))) {
      let k = i + 1;
      while (k < text.length && NAME_PART.test(text[k])) k += 1;
      push({ type: 'name', text: text.slice(i, k), line }, i, k);
      i = k;
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      let k = i + 1;
      while (k < text.length && /[0-9A-Za-z_.]/.test(text[k])) k += 1;
      push({ type: 'number', text: text.slice(i, k), line }, i, k);
      i = k;
    } else {
      const punct = PUNCTUATORS.find((p) => text.startsWith(p, i)) ?? c;
      push({ type: 'punct', text: punct, line }, i, i + punct.length);
      i += punct.length;
    }
  }
  return tokens;
}

/** The index of the token closing the bracket opened at `open` (`(`, `[` or `{`), or the last index. */
export function closing(tokens, open) {
  let depth = 0;
  for (let k = open; k < tokens.length; k++) {
    const t = tokens[k].text;
    if (tokens[k].type !== 'punct') continue;
    if (t === '(' || t === '[' || t === '{') depth += 1;
    else if (t === ')' || t === ']' || t === '}') {
      depth -= 1;
      if (depth === 0) return k;
    }
  }
  return tokens.length - 1;
}

/** A type's `import('…')` (`typeof import('x')`, `v as import('x').T`, `: import('x').T`), told by its neighbours. */
const TYPE_BEFORE = new Set(['typeof', 'as', ':', '<', '|', '&', 'extends', 'keyof']);

/**
 * Every module specifier of a source text, in order: `import … from`, `import '…'`, `export … from`,
 * `import x = require('…')`, a type's `import('…')` (`dynamic: false`, as TypeScript reads it) and a
 * runtime `import()` (`dynamic: true`; `specifier` undefined for a computed name).
 */
export function specifiersOf(text) {
  const tokens = tokenize(text);
  const found = [];
  let statement;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const next = tokens[i + 1];
    if (t.type === 'punct' && t.text === ';') statement = undefined;
    if (t.type !== 'name') continue;
    const before = tokens[i - 1];
    const member = before?.text === '.' || before?.text === '?.';
    if (member) continue;
    if ((t.text === 'import' || t.text === 'export') && next?.text !== '(' && next?.text !== '.') {
      statement = t.text;
      if (t.text === 'import' && next?.type === 'string') found.push({ specifier: next.value, dynamic: false });
    } else if (t.text === 'from' && statement && next?.type === 'string') {
      found.push({ specifier: next.value, dynamic: false });
      statement = undefined;
    } else if (
      t.text === 'require' &&
      statement === 'import' &&
      next?.text === '(' &&
      tokens[i + 2]?.type === 'string'
    ) {
      found.push({ specifier: tokens[i + 2].value, dynamic: false });
      statement = undefined;
    } else if (t.text === 'import' && next?.text === '(') {
      const argument = tokens[i + 2];
      const literal = argument?.type === 'string' && tokens[i + 3]?.text === ')' ? argument.value : undefined;
      const after = tokens[closing(tokens, i + 1) + 1];
      const isType =
        (before && TYPE_BEFORE.has(before.text)) ||
        (after?.text === '.' && /^[A-Z]/.test(tokens[closing(tokens, i + 1) + 2]?.text ?? ''));
      found.push({ specifier: literal, dynamic: !isType });
    }
  }
  return found;
}

/**
 * Every call of a fetch in a source text, as written: `fetch(…)`, `x.fetch(…)`, `x?.fetch(…)`,
 * `x['fetch'](…)`, `(fetch)(…)`, `fetch.call(…)` and `fetch.apply(…)`; a method named fetch being
 * declared (`async fetch(request) {`) is no call.
 */
export function fetchCallsOf(text) {
  const tokens = tokenize(text);
  const found = [];
  const isName = (k, name) => tokens[k]?.type === 'name' && tokens[k].text === name;
  const isPunct = (k, p) => tokens[k]?.type === 'punct' && tokens[k].text === p;
  /** The first token of the member chain ending at token `k` (`this.deps?.fetch` starts at `this`). */
  const chainStart = (k) => {
    let start = k;
    for (;;) {
      if ((isPunct(start - 1, '.') || isPunct(start - 1, '?.')) && tokens[start - 2]) {
        start = isPunct(start - 2, ')') || isPunct(start - 2, ']') ? opening(start - 2) : start - 2;
      } else return start;
    }
  };
  const opening = (close) => {
    let depth = 0;
    for (let k = close; k >= 0; k--) {
      const t = tokens[k];
      if (t.type !== 'punct') continue;
      if (t.text === ')' || t.text === ']' || t.text === '}') depth += 1;
      else if (t.text === '(' || t.text === '[' || t.text === '{') {
        depth -= 1;
        if (depth === 0) return k;
      }
    }
    return 0;
  };
  for (let i = 0; i < tokens.length; i++) {
    let calleeStart;
    let argumentsAt;
    const t = tokens[i];
    if (t.type === 'name' && t.text === 'fetch') {
      if (isPunct(i - 1, '(') && isPunct(i + 1, ')') && isPunct(i + 2, '(')) {
        calleeStart = i - 1;
        argumentsAt = i + 2;
      } else if (isPunct(i + 1, '(')) {
        calleeStart = chainStart(i);
        argumentsAt = i + 1;
      } else if (isPunct(i + 1, '.') && (isName(i + 2, 'call') || isName(i + 2, 'apply')) && isPunct(i + 3, '(')) {
        calleeStart = chainStart(i);
        argumentsAt = i + 3;
      }
    } else if (
      t.type === 'string' &&
      t.value === 'fetch' &&
      isPunct(i - 1, '[') &&
      isPunct(i + 1, ']') &&
      isPunct(i + 2, '(')
    ) {
      // `deps['fetch'](…)`: the chain ends at the object before the `[`.
      calleeStart = chainStart(isPunct(i - 2, ')') || isPunct(i - 2, ']') ? opening(i - 2) : i - 2);
      argumentsAt = i + 2;
    }
    if (argumentsAt === undefined) continue;
    const close = closing(tokens, argumentsAt);
    // `fetch(request) {` or `fetch(request): Promise<Response> {` declares a method.
    const declared = isPunct(close + 1, '{') || (isPunct(close + 1, ':') && calleeStart === i && !isPunct(i - 1, '?'));
    if (declared) continue;
    found.push(text.slice(tokens[calleeStart].start, tokens[close].end));
  }
  return found;
}
