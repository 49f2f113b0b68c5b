// An example is never shown masked. The phone rule read `e.g. +55 (**) *****-**21`: its example was
// digits the CPF masking (src/redact.ts) eats, as it eats every CPF-shaped number on every surface. The
// rule: every text a rule of the package can show (the contract's rules in words, the identifier rules,
// the pattern examples, the options' rules) is left as it is by the masking; an example the masking
// would hide is shown as its shape (`###.###.###-##`, `+55 (DD) 9####-####`), held here to the value
// it stands for. A new rule with a CPF-shaped example fails here, whoever writes it.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CALL_OPTION_RULES, PAGE_OPTION_RULES } from '../../src/client/options.js';
import { PACING_RULES } from '../../src/batch/options.js';
import { PATTERN_EXAMPLES } from '../../src/generated/bounds.js';
import type { GeneratedValidatorError } from '../../src/generated/validators.js';
import { clientCredentials, createBaasClient, isBaasOptionError } from '../../src/index.js';
import { LOGGING_RULES } from '../../src/logging/levels.js';
import { BOOLEAN, TLS_SHAPE_RULE, type OptionRule } from '../../src/option-rules.js';
import { redactText, shownExample } from '../../src/redact.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { RATE_LIMIT_RULES } from '../../src/sandbox/rate-limit.js';
import { IDENTIFIER_FORMS, canonicalIdentifier, type IdentifierKind } from '../../src/validation/identifiers.js';
import { validateUpdateNaturalPersonQuery, validateNaturalPersonUpdate } from '../../src/validation/index.js';
import { patternExample, ruleOf, TEXT_RULE } from '../../src/validation/rules.js';

const bundled = JSON.parse(readFileSync(new URL('../../src/generated/openapi.json', import.meta.url), 'utf8'));

/** Every text in `texts` the masking changes, with what it makes of it: none, when every example is shown as it is. */
const maskedOf = (texts: Iterable<string>): string[] =>
  [...new Set(texts)].filter((text) => redactText(text) !== text).map((text) => `${text} → ${redactText(text)}`);

// Ajv's params for each keyword a schema may hold, from the schema's own value.
const PARAMS: Record<string, (value: unknown) => Record<string, unknown>> = {
  type: (type) => ({ type: Array.isArray(type) ? type.join(',') : type }),
  enum: (allowedValues) => ({ allowedValues }),
  const: (allowedValue) => ({ allowedValue }),
  pattern: (pattern) => ({ pattern }),
  format: (format) => ({ format }),
  minLength: (limit) => ({ limit }),
  maxLength: (limit) => ({ limit }),
  minItems: (limit) => ({ limit }),
  maxItems: (limit) => ({ limit }),
  minProperties: (limit) => ({ limit }),
  maxProperties: (limit) => ({ limit }),
  minimum: (limit) => ({ limit, comparison: '>=' }),
  maximum: (limit) => ({ limit, comparison: '<=' }),
  exclusiveMinimum: (limit) => ({ limit, comparison: '>' }),
  exclusiveMaximum: (limit) => ({ limit, comparison: '<' }),
  multipleOf: (multipleOf) => ({ multipleOf }),
  required: () => ({ missingProperty: 'x' }),
  additionalProperties: () => ({ additionalProperty: 'x' }),
  uniqueItems: () => ({}),
};

/** The rule, with its example, of every keyword of every schema of the contract, as a broken value's issue says it. */
function contractRules(): string[] {
  const rules: string[] = [];
  const seen = new Set<object>();
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    for (const [keyword, params] of Object.entries(PARAMS)) {
      if (!Object.hasOwn(node, keyword)) continue;
      const error = {
        instancePath: '',
        schemaPath: '',
        keyword,
        params: params((node as Record<string, unknown>)[keyword]),
      } as GeneratedValidatorError;
      rules.push(`${ruleOf(error)}${patternExample(error)}`);
    }
    for (const value of Object.values(node)) walk(value);
  };
  walk(bundled);
  return rules;
}

// Values of every kind, to make each rule say its words.
const PROBES: readonly unknown[] = [
  null,
  0,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  10_000_000_000,
  '',
  'x',
  'http://example.test',
  {},
  [],
  [1],
  true,
  () => undefined,
];

// No rule echoes the value it refused (an options error never shows one: `got 10000000000` was shown
// `got *********00`), so each rule's words and message are checked as they are.
/** The words of `rule` for every probe it refuses. */
const wordsOf = (rule: OptionRule): string[] =>
  PROBES.flatMap((value) => {
    const words = rule.check(value);
    return words === undefined ? [] : [typeof words === 'string' ? words : words.rule];
  });

/**
 * The rule and message of every refusal `make` throws for a probe at one option, its options' names
 * read from what `make` reads of valid ones (`base`), one level of nested options too.
 */
function refusals(make: (options: Record<string, unknown>) => unknown, base: Record<string, unknown>): string[] {
  const read = (build: (options: Record<string, unknown>) => unknown, target: Record<string, unknown>) => {
    const names = new Set<string>();
    const spy = new Proxy(target, {
      get: (object, name) => {
        if (typeof name === 'string') names.add(name);
        return Reflect.get(object, name);
      },
    });
    try {
      build(spy);
    } catch {
      // What it reads before it refuses is enough.
    }
    return [...names];
  };
  const said: string[] = [];
  const attempt = (options: Record<string, unknown>) => {
    try {
      make(options);
    } catch (error) {
      if (isBaasOptionError(error)) said.push(error.rule, error.message);
    }
  };
  for (const name of read(make, base)) {
    for (const value of PROBES) attempt({ ...base, [name]: value });
    for (const inner of read((nested) => make({ ...base, [name]: nested }), {}))
      for (const value of PROBES) attempt({ ...base, [name]: { [inner]: value } });
  }
  return said;
}

describe('an example is never shown masked', () => {
  it('each identifier shape stands for its value: a digit where the shape has # or a letter, the rest as it is', () => {
    const standsFor = (shape: string, value: string) =>
      shape.length === value.length &&
      [...shape].every((char, i) => (/[#A-Z]/.test(char) && /[0-9]/.test(value[i]!)) || char === value[i]);
    for (const [kind, form] of Object.entries(IDENTIFIER_FORMS)) {
      for (const [shown, value] of [
        [form.example, form.written],
        [form.canonicalExample, form.canonical],
      ] as const) {
        // A value the masking leaves is shown as it is; only one it would hide is shown as a shape.
        if (redactText(value) === value) expect(shown, kind).toBe(value);
        else expect(standsFor(shown, value), `${kind}: ${shown} for ${value}`).toBe(true);
      }
    }
  });

  it('a pattern example the masking would hide is shown as its shape, one digit a #', () => {
    expect(shownExample('52998224725')).toBe('###########');
    expect(shownExample('-46.6558819')).toBe('-46.6558819');
    for (const example of Object.values(PATTERN_EXAMPLES))
      expect(redactText(shownExample(example))).toBe(shownExample(example));
  });

  it("the contract's rules in words, with their examples, are left as they are by the masking", () => {
    const rules = contractRules();
    expect(rules.length).toBeGreaterThan(50);
    expect(rules.some((rule) => rule.includes('e.g. ###########'))).toBe(true);
    // The date-time pattern's digits are 11 joined as a CPF's: its `[0-9]` is shown as `\\d`.
    expect(rules).toContain(
      'must match the pattern ^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z$, e.g. 2024-03-18T14:05:09.000Z',
    );
    expect(maskedOf([...rules, TEXT_RULE])).toEqual([]);
  });

  it('every identifier rule, and its example, is left as it is by the masking', () => {
    const values = ['', 'x', '1', '12', '1234567', '5299822472', '52998224724', '11111111111', '11987654321'];
    const values14 = ['AAAAAAAAAAAAAA', '11111111111111', '11222333000180', '+0 11 98765-4321', '+5511', '+1'];
    const shown: string[] = [];
    for (const kind of Object.keys(IDENTIFIER_FORMS) as IdentifierKind[]) {
      const form = IDENTIFIER_FORMS[kind];
      shown.push(form.what, form.form, form.example, form.canonicalExample, form.unit);
      for (const value of [...values, ...values14, 42]) {
        const { problem } = canonicalIdentifier(kind, value, 'theField');
        if (problem) shown.push(problem.rule, problem.example, problem.message);
      }
    }
    // The rule that asks for the contract's form, for each identifier written as people write it.
    const written = validateUpdateNaturalPersonQuery({ Account: '123456', DocumentNumber: '529.982.247-25' });
    const body = validateNaturalPersonUpdate({ phoneNumber: '+55 (11) 98765-4321' });
    expect([...written, ...body].map((issue) => issue.rule)).toHaveLength(2);
    shown.push(...[...written, ...body].flatMap((issue) => [issue.rule, issue.message]));
    expect(maskedOf(shown)).toEqual([]);
  });

  it("every option's rule is left as it is by the masking", () => {
    const tables = [LOGGING_RULES, CALL_OPTION_RULES, PAGE_OPTION_RULES, PACING_RULES, RATE_LIMIT_RULES];
    const words = [
      ...tables.flatMap((table) => Object.values(table).flatMap((rule) => wordsOf(rule as OptionRule))),
      ...wordsOf(BOOLEAN),
      ...wordsOf(TLS_SHAPE_RULE),
    ];
    const said = [
      ...refusals((options) => createBaasClient(options as never), { baseUrl: 'https://x.example', token: 't' }),
      ...refusals((options) => clientCredentials(options as never), {
        tokenUrl: 'https://x.example/token',
        clientId: 'id',
        clientSecret: 'secret',
      }),
      ...refusals((options) => createSandbox(options as never), {
        clients: 1,
        accountsPerClient: 1,
        keysPerAccount: 1,
      }),
    ];
    expect(said.length).toBeGreaterThan(50);
    expect(maskedOf([...words, ...said])).toEqual([]);
  });

  it('no fixed text of the package that says a rule or gives an example is changed by the masking', () => {
    // Every string literal and template part in src/ that reads as a rule (`must …`, `is …`) or holds an
    // example (`e.g.`): the words of rules built anywhere, before any value is put in them.
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
      });
    const texts: string[] = [];
    for (const file of files('src')) {
      if (file.startsWith(join('src', 'generated'))) continue;
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        if (
          ts.isStringLiteralLike(node) ||
          ts.isTemplateHead(node) ||
          ts.isTemplateMiddle(node) ||
          ts.isTemplateTail(node)
        ) {
          const { text } = node as ts.LiteralLikeNode;
          if (/\be\.g\.|^\s*(?:must|is|are|has|should|needs?)\b/.test(text)) texts.push(text);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(texts.length).toBeGreaterThan(100);
    expect(maskedOf(texts)).toEqual([]);
  });
});
