// One module holds every masking rule (src/redact.ts); every other module of src/ calls it. Issue 26
// found four copies (the event log's, the token request's `mask`, verify's control-character
// escaping, the request log's digit masking), each knowing part of the rules. This reads every
// source file with TypeScript's parser and fails when a copy comes back:
// - a string that stands in for a secret (`[REDACTED]`, `REDACTED`, `***`);
// - a `.replace` whose pattern looks for digits, control or format characters (a CPF mask, an escape);
// - a Unicode normalization or a percent-decoding done for masking;
// - a function or constant named as a masking rule (mask…, redact…, escape…Controls) that is not on
//   the short list below, each of which only calls src/redact.ts.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';

const HOME = 'src/redact.ts';

/** Names of masking helpers outside src/redact.ts, and why each is not a copy. */
const CALLERS: Record<string, string> = {
  // src/logging/event-log.ts: redactJson with the event's options (URLs by redactUrl, headers by name).
  redactEvent: 'calls redactJson, redactUrl, redactHeaders',
  // src/errors.ts: redactBounded for an optional field.
  redactOptional: 'calls redactBounded',
  // src/sandbox/snapshot.ts: maskDigits under the name the sandbox's tests know.
  maskCpf: 'is maskDigits',
};

// What stands in place of a secret.
const PLACEHOLDER = /REDACTED|^\*{3,}$/;
// A pattern that finds digits (a CPF), or control and format characters (an escape).
const MASKING_PATTERN = /\[0-9\]|\\d|\\p\{N|\\p\{C|\\u00[01][0-9a-f]|\\x[01][0-9a-f]|\\u20[02][0-9a-f]|\\u007f/i;
const MASKING_NAME = /^(mask(?!ed$)|redact(?!ed$)|escape\w*Control|unprintable|unsafe$)/i;

interface Copy {
  file: string;
  line: number;
  what: string;
}

/** Every masking rule a source text defines for itself. */
function copiesIn(file: string, text: string): Copy[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Copy[] = [];
  const add = (node: ts.Node, what: string) =>
    found.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, what });
  const patternOf = (node: ts.Node | undefined): string | undefined => {
    if (!node) return undefined;
    if (ts.isRegularExpressionLiteral(node)) return node.text;
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'RegExp') {
      const first = node.arguments?.[0];
      return first && (ts.isStringLiteralLike(first) || ts.isTemplateExpression(first)) ? first.getText() : '';
    }
    return undefined;
  };
  // Regular expressions bound to a name, so that `.replace(NAME, …)` is read as the pattern it names.
  const patterns = new Map<string, string>();
  const collect = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)) {
      const pattern = patternOf(node.initializer);
      if (pattern !== undefined) patterns.set(node.name.text, pattern);
    }
    ts.forEachChild(node, collect);
  };
  collect(source);

  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && PLACEHOLDER.test(node.text))
      add(node, `a placeholder for a secret: ${node.getText()}`);
    if (
      ts.isTemplateExpression(node) &&
      [node.head, ...node.templateSpans.map((s) => s.literal)].some((p) => PLACEHOLDER.test(p.text))
    )
      add(node, 'a placeholder for a secret in a template');
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const first = node.arguments[0];
      if (method === 'replace' || method === 'replaceAll') {
        const pattern = patternOf(first) ?? (first && ts.isIdentifier(first) ? patterns.get(first.text) : undefined);
        if (pattern !== undefined && MASKING_PATTERN.test(pattern))
          add(node, `a replace that masks or escapes: ${node.getText().slice(0, 80)}`);
      }
      if (method === 'normalize' && first && ts.isStringLiteral(first) && /^NFK[CD]$/.test(first.text))
        add(node, 'a compatibility normalization (NFKC, NFKD)');
    }
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      /^decodeURI(Component)?$/.test(node.expression.text)
    )
      add(node, 'a percent-decoding');
    const named =
      (ts.isFunctionDeclaration(node) && node.name) ||
      (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name) ||
      undefined;
    if (named && MASKING_NAME.test(named.text) && !(named.text in CALLERS))
      add(named, `a masking helper of its own: ${named.text}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Percent-decoding done for something other than masking: what a form field holds. */
const DECODING_ALLOWED = new Set(['src/sandbox/oauth.ts']);
/**
 * The one module of the identifiers people type drops separators (Unicode P, Zs and Cf, invisible
 * format characters among them) to write a value in the contract's form, which shows it rather than hides it.
 */
const CANONICAL_FORM = 'src/validation/identifiers.ts';

async function sourceFiles(): Promise<string[]> {
  const entries = await readdir(join(repoRoot, 'src'), { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && /\.(ts|mts)$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => relative(repoRoot, join(e.parentPath, e.name)))
    .filter((file) => file !== HOME && !file.startsWith('src/generated/'))
    .sort();
}

describe('one module holds the masking rules', () => {
  it('no module of src/ but src/redact.ts defines a masking rule of its own', async () => {
    const copies: Copy[] = [];
    for (const file of await sourceFiles()) {
      const found = copiesIn(file, await readFile(join(repoRoot, file), 'utf8'));
      copies.push(
        ...found.filter(
          (copy) =>
            !(DECODING_ALLOWED.has(file) && copy.what === 'a percent-decoding') &&
            !(
              file === CANONICAL_FORM && copy.what === "a replace that masks or escapes: value.replace(SEPARATORS, '')"
            ),
        ),
      );
    }
    expect(copies).toEqual([]);
  });

  it('finds each copy issue 26 removed (the check is not vacuous)', () => {
    const copies = [
      // src/logging/event-log.ts and src/auth/request-token.ts had their own mask.
      `const MASK = '[REDACTED]';\nfunction mask(text: string) { return text.split('x').join(MASK); }`,
      // src/verify/report.ts escaped control characters itself.
      `const UNPRINTABLE = /[\\u0000-\\u001f\\u007f-\\u009f]/g;\nexport const clean = (t: string) => t.replace(UNPRINTABLE, '?');`,
      // src/cli/log-text.ts masked digit runs itself.
      `const loggedPath = (p: string) => p.replace(/[0-9]{11}/g, '***********');`,
      // A CPF pattern built as a string, an escape of format characters, a normalization, a decoding.
      `const hide = (t: string) => t.replace(new RegExp('[0-9]{3}\\\\.[0-9]{3}', 'g'), 'x');`,
      `const shown = (t: string) => t.replace(/[\\p{Cf}]/gu, '');`,
      `const plain = (t: string) => t.normalize('NFKC');`,
      `const path = (t: string) => decodeURIComponent(t);`,
      'const stars = `${"a"}***`;\nconst s = "***";',
    ];
    for (const text of copies) expect(copiesIn('src/example.ts', text), text).not.toEqual([]);
    // And what is not masking passes: a refusal of control characters, a pointer's escapes.
    expect(
      copiesIn(
        'src/example.ts',
        `const CONTROL = /[\\u0000-\\u001f]/;\nconst ok = CONTROL.test('x');\nconst p = (n: string) => n.replace(/~/g, '~0');`,
      ),
    ).toEqual([]);
  });
});
