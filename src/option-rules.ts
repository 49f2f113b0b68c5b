// One declaration per options type: each option's rule, keyed by the option's name. The names it holds
// are the names a reader takes (a misspelt one is refused with the one meant, src/words.ts), and its
// rules are what a value must keep; the type makes tsc fail when the options type gains or loses a
// member the declaration does not have. A refusal says where, the option and the rule broken, in the
// words users read: `updateMany: concurrency must be a whole number from 1 to 256`.
import { misspeltOptionProblem } from './words.js';

/** What a value of one option must be, and the words that say it. */
export interface OptionRule {
  /** Undefined when `value` keeps the rule, else the rule's words after the option's name. */
  readonly check: (value: unknown) => string | undefined;
  /** RangeError for a value out of bounds, TypeError for a value of the wrong kind. */
  readonly error: typeof TypeError | typeof RangeError;
  /** Checked when missing (undefined) too: the option is required, and `check` says so. */
  readonly required?: boolean;
}

/** Every member of `X`, optional ones included, with its rule. */
export type OptionRules<X> = { readonly [K in keyof X]-?: OptionRule };

/** A rule `holds` states, refused as a TypeError (the wrong kind of value) with `words`. */
export const must = (holds: (value: unknown) => boolean, words: string): OptionRule => ({
  check: (value) => (holds(value) ? undefined : words),
  error: TypeError,
});

/** A rule `holds` states, refused as a RangeError (a value out of bounds) with `words`. */
export const within = (holds: (value: unknown) => boolean, words: string): OptionRule => ({
  check: (value) => (holds(value) ? undefined : words),
  error: RangeError,
});

/** An option any value of its type suits, or one whose rule involves another option (said where it is checked). */
export const AS_GIVEN: OptionRule = { check: () => undefined, error: TypeError };

export const isFunction = (value: unknown): boolean => typeof value === 'function';

/**
 * Refuses `options` (a TypeError) when a member looks like a misspelt name of `rules` (`aliases` are
 * names a caller may bring from elsewhere), then checks its values (checkOptionValues).
 */
export function checkOptions<X extends object>(
  where: string,
  options: X,
  rules: OptionRules<X>,
  aliases?: Readonly<Record<string, string>>,
): void {
  const misspelt = misspeltOptionProblem(where, options, Object.keys(rules), aliases);
  if (misspelt !== undefined) throw new TypeError(misspelt);
  checkOptionValues(where, options, rules);
}

/**
 * Checks each option that is given (not undefined) or required, in the declaration's order, throwing the
 * first refusal as `${where}: ${option} ${words}` (no space before words that name an item, `scope[2] …`).
 * Members `rules` does not name are left alone.
 */
export function checkOptionValues<X extends object>(where: string, options: X, rules: OptionRules<X>): void {
  for (const [option, rule] of Object.entries(rules) as [string, OptionRule][]) {
    const value = (options as Record<string, unknown>)[option];
    const words = value === undefined && !rule.required ? undefined : rule.check(value);
    if (words !== undefined) throw new rule.error(`${where}: ${option}${words.startsWith('[') ? '' : ' '}${words}`);
  }
}
