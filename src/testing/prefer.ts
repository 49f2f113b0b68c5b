import { BOOLEAN, checkOptions, isRecord, optionError, type OptionRules, within } from '../option-rules.js';

/**
 * Prism picks a response per request from the `Prefer` header. These helpers build it, e.g.
 * `headers: preferHeaders({ code: 429 })` or `preferHeaders({ example: 'LastPage' })`.
 */
export interface MockPreference {
  /** The status code of the documented response to serve. */
  code?: number;
  /** The name of the documented example to serve. */
  example?: string;
  /** Generate this response from its schema instead of an example. */
  dynamic?: boolean;
}

// Prism splits the header on commas and each part on "=": a name holding either, or white space,
// would silently ask for something else.
const EXAMPLE_NAME = /^[^\s,=]+$/;

// Each preference's rule, once (tsc fails here when MockPreference gains or loses one).
const RULES: OptionRules<MockPreference> = {
  code: within(
    (code) => Number.isInteger(code) && (code as number) >= 100 && (code as number) <= 599,
    'must be an HTTP status (100-599)',
  ),
  example: within(
    (example) => typeof example === 'string' && EXAMPLE_NAME.test(example),
    `must be an example's name, without spaces, commas or "="`,
  ),
  dynamic: BOOLEAN,
};

/** The value of a `Prefer` header asking Prism for a status, an example or a content type. */
export function preferHeader(preference: MockPreference): string {
  if (!isRecord(preference))
    throw optionError({ where: 'preferHeader', option: 'preference', rule: 'must be an object, e.g. { code: 429 }' });
  checkOptions('preferHeader', preference, RULES);
  const parts: string[] = [];
  if (preference.code !== undefined) parts.push(`code=${preference.code}`);
  if (preference.example !== undefined) parts.push(`example=${preference.example}`);
  if (preference.dynamic !== undefined) parts.push(`dynamic=${preference.dynamic}`);
  if (parts.length === 0)
    throw optionError({
      where: 'preferHeader',
      option: 'preference',
      rule: 'needs at least one of code, example or dynamic, e.g. { code: 429 }',
    });
  return parts.join(', ');
}

/** `{ Prefer: preferHeader(preference) }`, to spread into a call's `headers`. */
export function preferHeaders(preference: MockPreference): { Prefer: string } {
  return { Prefer: preferHeader(preference) };
}
