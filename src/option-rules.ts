// One declaration per options type: each option's rule, keyed by the option's name. The names it holds
// are the names a reader takes (a misspelt one is refused with the one meant, src/words.ts), and its
// rules are what a value must keep; the type makes tsc fail when the options type gains or loses a
// member the declaration does not have. A refusal is data first (`BaasOptionError`: where, the option,
// the rule broken) and its message is made of that data, in the words users read:
// `updateMany: concurrency must be a whole number from 1 to 256`. The command line names its flags
// from `option`, never from the message.
import { misspeltMembers } from './words.js';

/**
 * An options mistake: a `TypeError` (a value of the wrong kind, a misspelt name) or a `RangeError` (a
 * value out of bounds) thrown when a client, a token source, a batch or a sandbox is given options it
 * cannot use, before anything is sent. Its message is `${where}: ${option} ${rule}`; the same parts are
 * fields (read by name; not enumerable, as `message` is not), so a program (the command line naming its
 * flags) reads them instead of the message. Never a value.
 */
export interface BaasOptionError extends Error {
  /** The function the options were given to (`createBaasClient`, `clientCredentials`, `updateMany`), when known. */
  readonly where: string | undefined;
  /** The option as the caller wrote it, nested ones by their path: `timeoutMs`, `retry.maxAttempts`, `tls.ca[1]`. */
  readonly option: string;
  /** The rule it broke, in the words that follow the option's name: `must be a whole number of at least 1`. */
  readonly rule: string;
}

/** The parts of an options mistake, from which its message is made (`optionMessage`). */
export interface OptionProblem {
  readonly where?: string | undefined;
  readonly option: string;
  readonly rule: string;
}

/** An error class an option's rule refuses with. */
export type OptionErrorClass = typeof TypeError | typeof RangeError;

// A plain path (`retry.maxAttempts`, `ca[1]`) is written as it is; any other name (a caller's member
// with a space or a quote in it) is quoted, so the message still reads as name then rule.
const PLAIN_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d+\])*$/;

/** `${where}: ${option} ${rule}` (no `where:` when it is unknown): the one way an options mistake reads. */
export function optionMessage({ where, option, rule }: OptionProblem): string {
  const name = PLAIN_PATH.test(option) ? option : JSON.stringify(option);
  return `${where ? `${where}: ` : ''}${name} ${rule}`;
}

/** The one factory of options mistakes: an error of `kind` whose fields are `problem` and whose message is made of them. */
export function optionError(problem: OptionProblem, kind: OptionErrorClass = TypeError): BaasOptionError {
  const error = new kind(optionMessage(problem));
  // Not enumerable, as `message` is not: an error compared or printed by its own members stays the
  // TypeError or RangeError it was, and the parts are read by name.
  const part = (value: string | undefined) => ({ value, enumerable: false, writable: false, configurable: true });
  return Object.defineProperties(error, {
    where: part(problem.where),
    option: part(problem.option),
    rule: part(problem.rule),
  }) as BaasOptionError;
}

/**
 * Whether `error` is an options mistake of this package, with its `option` and `rule`. Read from the
 * fields, not the class, so an ES-module and a CommonJS copy of the package agree.
 */
export function isBaasOptionError(error: unknown): error is BaasOptionError {
  if (!(error instanceof TypeError || error instanceof RangeError)) return false;
  const { option, rule } = error as Partial<BaasOptionError>;
  return typeof option === 'string' && typeof rule === 'string';
}

/** What a rule says of a refused value: its words after the option's name, or after one of its parts (`at`: `[2]`, `.info`). */
export type RuleWords = string | { readonly at: string; readonly rule: string };

/** What a value of one option must be, and the words that say it. */
export interface OptionRule {
  /** Undefined when `value` keeps the rule, else the rule's words after the option's name. */
  readonly check: (value: unknown) => RuleWords | undefined;
  /** RangeError for a value out of bounds, TypeError for a value of the wrong kind. */
  readonly error: OptionErrorClass;
  /** Checked when missing (undefined) too: the option is required, and `check` says so. */
  readonly required?: boolean;
}

/** Every member of `X`, optional ones included, with its rule. */
export type OptionRules<X> = { readonly [K in keyof X]-?: OptionRule };

/**
 * Where an options object was given: the function that took it (`createBaasClient`), and its path there
 * when it is a member of other options (`retry`, `clientCredentials.tls`). A string is `where` alone.
 */
export type OptionsPlace = string | { readonly where?: string | undefined; readonly path?: string | undefined };

const placeOf = (place: OptionsPlace) => (typeof place === 'string' ? { where: place, path: undefined } : place);

/** The refusal of `option` (a name of the options at `place`) with `rule`. */
export function refuseOption(
  place: OptionsPlace,
  option: string,
  rule: string,
  kind: OptionErrorClass = TypeError,
): BaasOptionError {
  const { where, path } = placeOf(place);
  return optionError({ where, option: path ? `${path}.${option}` : option, rule }, kind);
}

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

/** An option that is `true` or `false`: a string 'false' would otherwise count as true. */
export const BOOLEAN: OptionRule = must((value) => typeof value === 'boolean', 'must be true or false');

/** An object of its own members: not null, not a list. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A `tls` option's kind (an object); its members are checked by their own rules (src/tls/options.ts). */
export const TLS_SHAPE_RULE: OptionRule = must(
  isRecord,
  'must be an object: { cert, key, passphrase? }, { pfx, passphrase? } or { ca }, e.g. tls: { ca: readFileSync("ca.pem") }',
);

/** How `checkOptions` treats members its declaration does not name. */
export interface UnknownMembers {
  /** Names a caller may bring from elsewhere, and the option each means (`retries` for maxAttempts). */
  readonly aliases?: Readonly<Record<string, string>> | undefined;
  /**
   * Refuse every member the declaration does not name (its value not undefined), not only the ones that
   * look misspelt: for options where an ignored member would weaken a guarantee (`tls.rejectUnauthorized`).
   */
  readonly closed?: boolean | undefined;
}

/**
 * Refuses `options` (a TypeError) when a member looks like a misspelt name of `rules` (or, `closed`, is
 * any name it does not hold), naming the one meant, then checks its values (checkOptionValues). A member
 * far from every name is otherwise left alone: spreading a wider object into the options is fine.
 */
export function checkOptions<X extends object>(
  place: OptionsPlace,
  options: X,
  rules: OptionRules<X>,
  { aliases, closed }: UnknownMembers = {},
): void {
  const known = Object.keys(rules);
  const [misspelt] = misspeltMembers(options, known, { aliases });
  if (misspelt !== undefined)
    throw refuseOption(
      place,
      misspelt.given,
      `is not an option; did you mean ${misspelt.meant}?${closed ? ` (known: ${known.join(', ')})` : ''}`,
    );
  if (closed) {
    const stranger = Object.keys(options).find(
      (name) => !known.includes(name) && (options as Record<string, unknown>)[name] !== undefined,
    );
    if (stranger !== undefined) throw refuseOption(place, stranger, `is not an option (known: ${known.join(', ')})`);
  }
  checkOptionValues(place, options, rules);
}

/**
 * Checks each option that is given (not undefined) or required, in the declaration's order, throwing the
 * first refusal (refuseOption, the class its rule declares). Members `rules` does not name are left alone.
 */
export function checkOptionValues<X extends object>(place: OptionsPlace, options: X, rules: OptionRules<X>): void {
  for (const [option, rule] of Object.entries(rules) as [string, OptionRule][]) {
    const value = (options as Record<string, unknown>)[option];
    const words = value === undefined && !rule.required ? undefined : rule.check(value);
    if (words === undefined) continue;
    throw typeof words === 'string'
      ? refuseOption(place, option, words, rule.error)
      : refuseOption(place, `${option}${words.at}`, words.rule, rule.error);
  }
}
