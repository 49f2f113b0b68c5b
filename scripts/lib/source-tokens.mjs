// The tokens of a TypeScript or JavaScript source, for the checks that read the repository's code
// (test/meta/prose.test.ts through prose-count.mjs): strings, templates, regular expressions, names,
// numbers and punctuation, each with its line, comments left out. A lexer, not a parser: it loads in
// no time, where the TypeScript compiler took 1.6 s to import. A `/` is a regular expression where an
// expression may start (after an operator, an opening bracket, a comma, a keyword such as `return`),
// a division after a value (a name, a number, a literal, `)` or `]`).

/** @typedef {{ type: 'string' | 'template' | 'regex' | 'name' | 'number' | 'punct', text: string, value?: string, line: number }} Token */

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
      tokens.push({ type: 'string', text: text.slice(i, end), value: cooked(text.slice(i + 1, end - 1)), line });
      i = end;
    } else if (c === '`') {
      const end = templateEnd(i);
      const raw = text.slice(i, end);
      tokens.push({ type: 'template', text: raw, line: startLine });
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
      tokens.push({ type: 'regex', text: text.slice(i, k), line });
      i = k;
    } else if (NAME_START.test(c) || (c === '#' && NAME_START.test(text[i + 1] ?? ''))) {
      let k = i + 1;
      while (k < text.length && NAME_PART.test(text[k])) k += 1;
      tokens.push({ type: 'name', text: text.slice(i, k), line });
      i = k;
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      let k = i + 1;
      while (k < text.length && /[0-9A-Za-z_.]/.test(text[k])) k += 1;
      tokens.push({ type: 'number', text: text.slice(i, k), line });
      i = k;
    } else {
      const punct = PUNCTUATORS.find((p) => text.startsWith(p, i)) ?? c;
      tokens.push({ type: 'punct', text: punct, line });
      i += punct.length;
    }
  }
  return tokens;
}
