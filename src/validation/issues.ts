// Turns the errors of a generated validator into issues: where (a JSON pointer in the body, or a
// query parameter's name) and which rule, in words. Never the value.
import type { GeneratedValidator, GeneratedValidatorError } from '../generated/validators.js';
import { patternExample, ruleOf } from './rules.js';

/** One field or parameter that broke a rule of the contract: where, which rule, and what to send instead. Never the value. */
export interface ValidationIssue {
  /** JSON pointer of a body field (`/address/state`, `` for the body) or the name of a query parameter (`DocumentNumber`). */
  path: string;
  /** The rule the value broke, in words, without the field (`must be a string`). Never the value. */
  rule: string;
  /** The field and its rule in one sentence (`/address/state must be a string`), as messages show it. */
  message: string;
}

/**
 * The one way an issue is made: its message is always the field, then the rule, so a reader that
 * names fields its own way (the command line's columns and flags) takes `rule` and never parses `message`.
 */
export function issueAt(path: string, rule: string, field: string = path): ValidationIssue {
  return { path, rule, message: `${field} ${rule}` };
}

/** What was validated: a request body, or the query parameters as one object. */
export type Target = 'body' | 'query';

const escapePointer = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapePointer = (segment: string): string => segment.replace(/~1/g, '/').replace(/~0/g, '~');

// Ajv reports a missing or unknown property on its parent object; the issue belongs to the property.
function propertyNamed(error: GeneratedValidatorError): string | undefined {
  const { missingProperty, additionalProperty, unevaluatedProperty } = error.params;
  // Ajv sets at most one of them, always to a string.
  return (missingProperty ?? additionalProperty ?? unevaluatedProperty) as string | undefined;
}

function pathOf(error: GeneratedValidatorError, target: Target): string {
  const property = propertyNamed(error);
  const pointer = property === undefined ? error.instancePath : `${error.instancePath}/${escapePointer(property)}`;
  if (target === 'body') return pointer;
  // Query parameters are flat, so the first segment is the parameter's name.
  const [, first] = pointer.split('/');
  return first === undefined ? '' : unescapePointer(first);
}

/** Runs `validate` and lists every problem once; `[]` when `data` is valid. A pattern's rule shows the contract's example of it. */
export function runValidator(validate: GeneratedValidator, data: unknown, target: Target): ValidationIssue[] {
  if (validate(data)) return [];
  const issues = new Map<string, ValidationIssue>();
  for (const error of validate.errors ?? []) {
    const path = pathOf(error, target);
    const issue = issueAt(path, `${ruleOf(error)}${patternExample(error)}`, path === '' ? `the ${target}` : path);
    issues.set(`${issue.path}\n${issue.rule}`, issue);
  }
  return [...issues.values()];
}
