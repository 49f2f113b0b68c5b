// Turns the errors of a generated validator into issues: where (a JSON pointer in the body, or a
// query parameter's name) and which rule, in words. Never the value.
import type { GeneratedValidator, GeneratedValidatorError } from '../generated/validators.js';
import { ruleOf } from './rules.js';

/** One field or parameter that broke a rule of the contract: where, which rule, and what to send instead. Never the value. */
export interface ValidationIssue {
  /** JSON pointer of a body field (`/address/state`, `` for the body) or the name of a query parameter (`DocumentNumber`). */
  path: string;
  /** The field and the rule it broke, in words. Never the value. */
  message: string;
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

/** Runs `validate` and lists every problem once; `[]` when `data` is valid. */
export function runValidator(validate: GeneratedValidator, data: unknown, target: Target): ValidationIssue[] {
  if (validate(data)) return [];
  const issues = new Map<string, ValidationIssue>();
  for (const error of validate.errors ?? []) {
    const path = pathOf(error, target);
    const message = `${path === '' ? `the ${target}` : path} ${ruleOf(error)}`;
    issues.set(`${path}\n${message}`, { path, message });
  }
  return [...issues.values()];
}
