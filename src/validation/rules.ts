// The rule an Ajv error stands for, in words. Built only from the keyword and its schema-side
// params (limits, patterns, counts), never from the data: the value may be a CPF, a phone number
// or an address.
import { PATTERN_EXAMPLES, TEXT_PATTERN } from '../generated/bounds.js';
import { redactText, shownExample } from '../redact.js';
import type { GeneratedValidatorError } from '../generated/validators.js';

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

const FORMAT_WORDS: Record<string, string> = {
  email: 'an e-mail address',
  uuid: 'a UUID',
  'date-time': 'a date-time (RFC 3339)',
  date: 'a date (YYYY-MM-DD)',
  uri: 'an absolute URI',
  'uri-reference': 'a URI reference',
};

const plural = (count: unknown, one: string, many: string): string => `${String(count)} ${count === 1 ? one : many}`;

function typeWords(type: unknown): string {
  // A multi-type schema reports its types joined with commas.
  return String(type)
    .split(',')
    .map((name) => TYPE_WORDS[name] ?? name)
    .join(' or ');
}

/** The rule of every text field (the contract's TEXT_PATTERN), in words: which characters, and the right form. */
export const TEXT_RULE =
  'must not hold a control character (U+0000 to U+001F, U+007F to U+009F: NUL, tab, line breaks, escapes); write it as one line of plain text, e.g. Maria Silva';

/**
 * `, e.g. X`: the contract's example of a pattern, for a rule broken by what the caller gave (its own
 * request, its spreadsheet's cell). A pattern alone does not tell `-23,5613991` (a spreadsheet's decimal
 * comma) what `-23.5613991` would. An example the masking would hide is shown as its shape
 * (src/redact.ts shownExample); the text pattern has none, its rule says its own example.
 */
export function patternExample(error: GeneratedValidatorError): string {
  if (error.keyword !== 'pattern') return '';
  const pattern = String(error.params.pattern);
  const example = Object.hasOwn(PATTERN_EXAMPLES, pattern) ? PATTERN_EXAMPLES[pattern] : undefined;
  return example === undefined ? '' : `, e.g. ${shownExample(example)}`;
}

/**
 * A pattern as a rule shows it: as the contract writes it, or, where the masking would eat it (the
 * date-time pattern's `[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]` holds 11 digits joined as a CPF's are, and
 * read `[*-*]{*}:…` on every surface), with each `[0-9]` written `\\d`, which means the same and whose
 * letter joins no digits; failing that, undefined: the rule then says a pattern is broken, not which.
 */
export function shownPattern(pattern: string): string | undefined {
  if (redactText(pattern) === pattern) return pattern;
  const short = pattern.replaceAll('[0-9]', '\\d');
  return redactText(short) === short ? short : undefined;
}

function patternRule(pattern: string): string {
  if (pattern === TEXT_PATTERN) return TEXT_RULE;
  const shown = shownPattern(pattern);
  return shown === undefined ? "must match the contract's pattern for it" : `must match the pattern ${shown}`;
}

/** E.g. `must be one of the 27 allowed values`; the subject (field name) is added by the caller. */
export function ruleOf(error: GeneratedValidatorError): string {
  const p = error.params;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return 'is not a field of the contract';
    case 'minProperties':
      return `must hold at least ${plural(p.limit, 'field', 'fields')}`;
    case 'maxProperties':
      return `must hold at most ${plural(p.limit, 'field', 'fields')}`;
    case 'type':
      return `must be ${typeWords(p.type)}`;
    case 'enum': {
      // The count and the first three, not the list (27 UF codes would drown the message): enough to
      // show that `sp` is meant as `SP`. The values are the schema's, never the data.
      if (!Array.isArray(p.allowedValues)) return 'must be one of the allowed values';
      const values = p.allowedValues as unknown[];
      const shown = values.slice(0, 3).map(String).join(', ') + (values.length > 3 ? ', …' : '');
      return `must be one of the ${values.length} allowed values, spelt as the contract does: ${shown}`;
    }
    case 'const':
      return 'must be the one allowed value';
    case 'pattern':
      return patternRule(String(p.pattern));
    case 'format':
      return `must be ${FORMAT_WORDS[String(p.format)] ?? `a valid ${String(p.format)}`}`;
    case 'minLength':
      return `must have at least ${plural(p.limit, 'character', 'characters')}`;
    case 'maxLength':
      return `must have at most ${plural(p.limit, 'character', 'characters')}`;
    case 'minimum':
      return `must be at least ${String(p.limit)}`;
    case 'maximum':
      return `must be at most ${String(p.limit)}`;
    case 'exclusiveMinimum':
      return `must be greater than ${String(p.limit)}`;
    case 'exclusiveMaximum':
      return `must be less than ${String(p.limit)}`;
    case 'multipleOf':
      return `must be a multiple of ${String(p.multipleOf)}`;
    case 'minItems':
      return `must hold at least ${plural(p.limit, 'item', 'items')}`;
    case 'maxItems':
      return `must hold at most ${plural(p.limit, 'item', 'items')}`;
    case 'uniqueItems':
      return 'must not repeat an item';
    case 'anyOf':
      return 'must match one of the allowed forms';
    case 'oneOf':
      return 'must match exactly one of the allowed forms';
    default:
      return `breaks the "${error.keyword}" rule of the contract`;
  }
}
