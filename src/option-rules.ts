// One declaration per options type: each option's rule, keyed by the option's name. The names it holds
// are the names a reader takes (a misspelt one is refused with the one meant, src/words.ts), and its
// rules are what a value must keep; the type makes tsc fail when the options type gains or loses a
// member the declaration does not have. A refusal is data first (`BaasOptionError`: where, the option,
// the rule broken) and its message is made of that data, in the words users read:
// `updateMany: concurrency must be a whole number from 1 to 256`. The command line names its flags
// from `option`, never from the message.
import { closestName, misspeltMembers } from './words.js';

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

/**
 * The one factory of options mistakes: an error of `kind` whose fields are `problem` and whose message is made
 * of them; `cause`, when given, is what found the mistake (OpenSSL's error for unusable TLS material).
 */
export function optionError(
  problem: OptionProblem,
  kind: OptionErrorClass = TypeError,
  cause?: unknown,
): BaasOptionError {
  const error = cause === undefined ? new kind(optionMessage(problem)) : new kind(optionMessage(problem), { cause });
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

/** A name as programs write one: the only member names a refusal shows (any other may be data). */
const NAME = /^[A-Za-z_$][\w$]{0,63}$/;

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

/** The three shapes of a `tls` option, in the words its refusals and the names that go in it use. */
export const TLS_SHAPES = '{ cert, key, passphrase? }, { pfx, passphrase? } or { ca }';

/** A `tls` option's kind (an object); its members are checked by their own rules (src/tls/options.ts). */
export const TLS_SHAPE_RULE: OptionRule = must(
  isRecord,
  `must be an object: ${TLS_SHAPES}, e.g. tls: { ca: readFileSync("ca.pem") }`,
);

/**
 * Names that are not options of one options type but are options of something it takes (a member of
 * its `tls`, of the token source given as its `token`), each with where it goes, in the words that follow
 * "goes in": `tls: { cert, key, passphrase? }, …`. Made from the other declaration (`goIn`), not listed.
 */
export type OptionHomes = Readonly<Record<string, string>>;

/** Every name of `rules` (another options type's declaration) as going in `home`: `goIn(TLS_RULES, 'tls: { … }')`. */
export function goIn(rules: OptionRules<object> | Readonly<Record<string, OptionRule>>, home: string): OptionHomes {
  return Object.fromEntries(Object.keys(rules).map((name) => [name, home]));
}

/** How `checkOptions` treats members its declaration does not name (each is refused; these say how). */
export interface UnknownMembers {
  /** Names a caller may bring from elsewhere, and the option each means (`retries` for maxAttempts). */
  readonly aliases?: Readonly<Record<string, string>> | undefined;
  /** Names of options that go in another one (`cert` in `tls`), and where each goes (OptionHomes). */
  readonly homes?: OptionHomes | undefined;
  /**
   * List the names it takes beside a suggestion too (a refusal without one always lists them): for
   * options where each name is a guarantee (`tls.rejectUnauthorized`).
   */
  readonly closed?: boolean | undefined;
}

/**
 * The words after a member's name that `known` (the declaration's names) does not hold: where it goes
 * (`homes`), the name meant (an alias, the same letters in other case or at most two edits away, a
 * prefix: `log` for logger), or the names there are.
 */
function unknownMemberRule(name: string, known: readonly string[], { aliases, homes, closed }: UnknownMembers): string {
  const listed = ` (known: ${known.join(', ')})`;
  if (homes !== undefined && Object.hasOwn(homes, name)) return `is not an option here; it goes in ${homes[name]}`;
  const meant = misspeltMembers({ [name]: true }, known, { aliases })[0]?.meant ?? closestName(name, known);
  return meant === undefined
    ? `is not an option${listed}`
    : `is not an option; did you mean ${meant}?${closed ? listed : ''}`;
}

/**
 * Refuses `options` (a TypeError) when it has a member `rules` does not name: one that looks misspelt
 * (whatever its value), or any other that is not undefined; naming where it goes or the one meant (or
 * listing the names there are). Then checks its values (checkOptionValues). JavaScript has no type check,
 * and a member not read is a setting lost without a word (`cert` beside `tls`, `log` for logger), so
 * no name is left alone: a wider object spread into the options is refused too.
 */
export function checkOptions<X extends object>(
  place: OptionsPlace,
  options: X,
  rules: OptionRules<X>,
  unknown: UnknownMembers = {},
): void {
  const known = Object.keys(rules);
  // A misspelt name first, as before: `{ timeout: undefined }` is still a mistake worth naming.
  const [misspelt] = misspeltMembers(options, known, { aliases: unknown.aliases });
  const stranger =
    misspelt?.given ??
    Object.keys(options).find(
      (name) => !known.includes(name) && (options as Record<string, unknown>)[name] !== undefined,
    );
  if (stranger === undefined) {
    checkOptionValues(place, options, rules);
    return;
  }
  // A name near an option is one the caller wrote as a name, and said as it is.
  if (misspelt !== undefined || NAME.test(stranger))
    throw refuseOption(place, stranger, unknownMemberRule(stranger, known, unknown));
  // A member whose name is no name (a CPF, a document number as a key) is data: refused unshown.
  const { where, path } = placeOf(place);
  throw optionError({
    where,
    option: path ?? 'options',
    rule: `has a member whose name is not an option, nor a name (not shown: it may be data); give only options (known: ${known.join(', ')})`,
  });
}

/**
 * For an options type that shares its object with data (an operation's input and its per-call options,
 * `{ account, body, signal, timeoutMs }`), where a name far from every option may be the caller's own
 * (a wider object spread in): refuses each member that names an option wrongly, as checkOptions does, and
 * leaves any other member alone. Wrongly is: the same letters in other case or at most two edits away from
 * one of `rules` (`timeoutMS`, `singal`), a name `aliases` declares (another library's name for one), or a
 * name `homes` says goes in one of them (`maxAttempts`, which goes in `retry`). `others` are the names the
 * object takes besides the options (the operation's input): never taken for a misspelt option.
 */
export function refuseMistakenMembers<X extends object>(
  place: OptionsPlace,
  options: object,
  rules: OptionRules<X>,
  { aliases, homes, others = [] }: Omit<UnknownMembers, 'closed'> & { readonly others?: readonly string[] } = {},
): void {
  const known = Object.keys(rules);
  const names = Object.keys(options).filter((name) => !known.includes(name) && !others.includes(name));
  const housed = homes === undefined ? undefined : names.find((name) => Object.hasOwn(homes, name));
  if (housed !== undefined) throw refuseOption(place, housed, `is not an option here; it goes in ${homes![housed]}`);
  const [misspelt] = misspeltMembers(Object.fromEntries(names.map((name) => [name, true])), known, { aliases });
  if (misspelt !== undefined)
    throw refuseOption(place, misspelt.given, `is not an option; did you mean ${misspelt.meant}?`);
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
