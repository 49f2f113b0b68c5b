// Turns Ajv errors into issues that name the field and the rule, and never the value: the value
// may be a CPF, a phone number or an address.
import type { GeneratedValidator, GeneratedValidatorError } from '../generated/validators.js';

export interface ValidationIssue {
  /** JSON pointer of a body field (`/address/state`, `` for the body) or the name of a query parameter. */
  path: string;
  /** The field and the rule it broke, in words. Never the value. */
  message: string;
}

type Target = 'body' | 'query';

function pathOf(error: GeneratedValidatorError, target: Target): string {
  const extra =
    error.keyword === 'required' ? `/${error.params.missingProperty}` : error.keyword === 'additionalProperties' ? `/${error.params.additionalProperty}` : '';
  const pointer = `${error.instancePath}${extra}`;
  return target === 'query' ? pointer.replace(/^\//, '') : pointer;
}

function ruleOf(error: GeneratedValidatorError): string {
  const p = error.params;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a field of this contract';
    case 'minProperties':
      return `must hold at least ${p.limit} field`;
    case 'type':
      return `must be of type ${p.type}`;
    case 'enum':
      return `must be one of the ${(p.allowedValues as unknown[]).length} allowed values`;
    case 'pattern':
      return `must match the pattern ${p.pattern}`;
    case 'format':
      return `must be a valid ${p.format}`;
    case 'minLength':
      return `must have at least ${p.limit} characters`;
    case 'maxLength':
      return `must have at most ${p.limit} characters`;
    case 'minimum':
      return `must be at least ${p.limit}`;
    case 'maximum':
      return `must be at most ${p.limit}`;
    default:
      return `breaks the rule "${error.keyword}"`;
  }
}

export function runValidator(validate: GeneratedValidator, data: unknown, target: Target): ValidationIssue[] {
  if (validate(data)) return [];
  return (validate.errors ?? []).map((error) => {
    const path = pathOf(error, target);
    const name = path === '' ? 'the body' : path;
    return { path, message: `${name} ${ruleOf(error)}` };
  });
}
