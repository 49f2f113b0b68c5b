// The one rule for the identifiers people type: a CPF, a CNPJ, a CEP and a phone number are taken in
// the forms Brazilians write them (`529.982.247-25`, `12.ABC.345/01DE-35`, `01310-100`,
// `+55 (11) 98765-4321`) and turned into the contract's canonical form (`52998224725`,
// `12ABC34501DE35`, `01310100`, `+5511987654321`). Every surface that takes one calls this module:
// the client's updateNaturalPerson (and so updateMany), the update-many command's files, verify's
// --document-number, isValidCpf and isValidCnpj.
//
// The rule, over classes of characters rather than lists of them:
// - a separator is any character of the Unicode categories P (punctuation: . - / ( ) and the rest),
//   Zs (space separators, the no-break space among them) and Cf (invisible format characters a copy
//   from a web page brings along); separators are dropped wherever they stand;
// - a digit is an ASCII digit 0-9 (a CNPJ's first twelve characters may also be ASCII letters, taken
//   in either case and sent in upper case); the `+` of a phone number is its first character;
// - anything else (another letter, another script's digit, a symbol, a control character) means the
//   value cannot be made canonical, and the problem says the expected form with an example.
// Messages never hold the value, which is personal data: at most how many digits it has.
import { cnpjProblem } from '../cnpj.js';
import { cpfProblem } from './cpf.js';

/** The identifiers people type. */
export type IdentifierKind = 'cpf' | 'cnpj' | 'cep' | 'phone';

/** What keeps a value from being made canonical, as a code for programs (the `rule` says it in words). */
export type IdentifierProblemCode =
  /** Not text at all (a number has lost a CPF's or a CEP's leading zeros already). */
  | 'not-text'
  /** A character that is neither a digit (a CNPJ: nor a letter) nor a separator. */
  | 'characters'
  /** The wrong number of digits (characters, for a CNPJ): `count` says how many it has. */
  | 'length'
  /** A phone number that does not start with `+` and a country code. */
  | 'country-code'
  /** A CNPJ whose last two characters, its check digits, are not digits. */
  | 'check-digits-not-digits'
  /** One digit (character) repeated all along: passes the arithmetic, never issued. */
  | 'repeated-digit'
  /** The check digits do not match. */
  | 'check-digits';

/** Why a value cannot be made canonical: the field, the rule in words, an example of the right form. Never the value. */
export interface IdentifierProblem {
  /** The field as the caller names it (`DocumentNumber`, `address.postalCode`), or the kind when none was given. */
  field: string;
  /** Which identifier the value was meant to be. */
  kind: IdentifierKind;
  /** The rule broken, as a code a program can switch on. */
  code: IdentifierProblemCode;
  /** The rule broken, in words, without the field's name: `must be a CPF: 11 digits, … ; it has 10 digits`. */
  rule: string;
  /**
   * The right form as people write it, as the rule shows it: an example (`01310-100`), or its shape where
   * the masking would hide a real one (`###.###.###-##`, `+55 (DD) 9####-####`).
   */
  example: string;
  /** For `length`: how many digits (a CNPJ: letters and digits) the value has, separators dropped. */
  count?: number;
  /** `${field} ${rule}`. */
  message: string;
}

/** The canonical value, or why there is none. */
export type CanonicalIdentifier =
  | { value: string; problem?: undefined }
  | { value?: undefined; problem: IdentifierProblem };

interface KindRule {
  /** `a CPF`: the subject of the rule. */
  what: string;
  /** The form, said once for every message of the kind. */
  form: string;
  /** A real value as people write one (checked against the contract, never shown where the masking would hide it). */
  written: string;
  /** The same value in the contract's form. */
  canonical: string;
  /**
   * `written` as every message shows it: the value itself, or its shape (each digit a `#`, or a letter
   * that names it: `DD` for an area code) where the masking (src/redact.ts) would hide it, as it hides
   * every CPF-shaped number in a message, an example's digits among them: `###.###.###-##`, not
   * `***.***.***-25`. test/validation/shown-examples.test.ts holds each shape to its value and every
   * text a rule shows to the masking.
   */
  example: string;
  /** `canonical` as every message shows it, by the same rule. */
  canonicalExample: string;
  /** What the count of `length` counts. */
  unit: string;
}

/** Each kind's form and example; `test/validation/identifiers.test.ts` checks each canonical example against the contract. */
export const IDENTIFIER_FORMS: Readonly<Record<IdentifierKind, Readonly<KindRule>>> = {
  cpf: {
    what: 'a CPF',
    form: '11 digits, with or without separators',
    written: '529.982.247-25',
    canonical: '52998224725',
    example: '###.###.###-##',
    canonicalExample: '###########',
    unit: 'digits',
  },
  cnpj: {
    what: 'a CNPJ',
    form: '12 letters or digits then 2 check digits, written ##.###.###/####-## or without separators',
    written: '12.ABC.345/01DE-35',
    canonical: '12ABC34501DE35',
    example: '12.ABC.345/01DE-35',
    canonicalExample: '12ABC34501DE35',
    unit: 'letters and digits',
  },
  cep: {
    what: 'a CEP',
    form: '8 digits, written #####-### or without separators',
    written: '01310-100',
    canonical: '01310100',
    example: '01310-100',
    canonicalExample: '01310100',
    unit: 'digits',
  },
  phone: {
    what: 'a phone number in international form',
    form: '+, the country code and the number, at most 15 digits, with or without spaces, parentheses and dashes',
    written: '+55 (11) 98765-4321',
    canonical: '+5511987654321',
    example: '+55 (DD) 9####-####',
    canonicalExample: '+5511987654321',
    unit: 'digits after the +',
  },
};

const SEPARATORS = /[\p{P}\p{Zs}\p{Cf}]/gu;
const ASCII_LOWER = /[a-z]/g;

function problem(
  kind: IdentifierKind,
  field: string,
  code: IdentifierProblemCode,
  detail?: string,
  count?: number,
): { problem: IdentifierProblem } {
  const form = IDENTIFIER_FORMS[kind];
  const rule =
    code === 'check-digits'
      ? `is not ${form.what}: its check digits do not match (the form is ${form.form}, e.g. ${form.example})`
      : code === 'repeated-digit'
        ? `is not ${form.what}: one character repeated all along is never one (e.g. ${form.example})`
        : `must be ${form.what}: ${form.form}, e.g. ${form.example}; ${detail}`;
  return {
    problem: {
      field,
      kind,
      code,
      rule,
      example: form.example,
      ...(count === undefined ? {} : { count }),
      message: `${field} ${rule}`,
    },
  };
}

const lengthProblem = (kind: IdentifierKind, field: string, count: number) =>
  problem(kind, field, 'length', `it has ${count} ${IDENTIFIER_FORMS[kind].unit}`, count);

const OTHER_CHARACTER = 'it holds a character that is neither a digit nor a separator';

/**
 * `value` in the contract's canonical form (`529.982.247-25` → `52998224725`), or the problem that
 * keeps it from one: the field (`field`, or the kind), the rule in words, an example. A CPF's and a
 * CNPJ's check digits are checked too; any other rule of the field (a CEP that exists) is not.
 */
export function canonicalIdentifier(kind: IdentifierKind, value: unknown, field: string = kind): CanonicalIdentifier {
  if (typeof value !== 'string') return problem(kind, field, 'not-text', 'give it as text (a string)');
  const bare = value.replace(SEPARATORS, '');
  switch (kind) {
    case 'cpf': {
      if (!/^[0-9]*$/.test(bare)) return problem(kind, field, 'characters', OTHER_CHARACTER);
      if (bare.length !== 11) return lengthProblem(kind, field, bare.length);
      const broken = cpfProblem(bare);
      if (broken === 'repeated-digit') return problem(kind, field, 'repeated-digit');
      if (broken === 'check-digits') return problem(kind, field, 'check-digits');
      return { value: bare };
    }
    case 'cnpj': {
      const upper = bare.replace(ASCII_LOWER, (letter) => letter.toUpperCase());
      if (!/^[0-9A-Z]*$/.test(upper))
        return problem(
          kind,
          field,
          'characters',
          'it holds a character that is neither a letter A-Z, a digit nor a separator',
        );
      if (upper.length !== 14) return lengthProblem(kind, field, upper.length);
      const broken = cnpjProblem(upper);
      if (broken === 'not-14-characters')
        return problem(
          kind,
          field,
          'check-digits-not-digits',
          'its last two characters, the check digits, must be digits',
        );
      if (broken === 'repeated-character') return problem(kind, field, 'repeated-digit');
      if (broken === 'check-digits') return problem(kind, field, 'check-digits');
      return { value: upper };
    }
    case 'cep':
      if (!/^[0-9]*$/.test(bare)) return problem(kind, field, 'characters', OTHER_CHARACTER);
      if (bare.length !== 8) return lengthProblem(kind, field, bare.length);
      return { value: bare };
    case 'phone': {
      if (!/^\+?[0-9]*$/.test(bare)) return problem(kind, field, 'characters', OTHER_CHARACTER);
      if (!bare.startsWith('+'))
        return problem(kind, field, 'country-code', 'it does not start with + and the country code (+55 for Brazil)');
      const digits = bare.slice(1);
      if (digits.length < 2 || digits.length > 15) return lengthProblem(kind, field, digits.length);
      if (digits.startsWith('0'))
        return problem(kind, field, 'country-code', 'a country code never starts with 0 (+55 for Brazil)');
      return { value: bare };
    }
  }
}

/** True for a CNPJ, numeric or alphanumeric, given as its 14 characters or as people write it (`12.ABC.345/01DE-35`). */
export function isValidCnpj(value: string): boolean {
  return canonicalIdentifier('cnpj', value).value !== undefined;
}

/** True for a CPF, given as its 11 digits or as people write it (`529.982.247-25`). */
export function isValidCpf(value: string): boolean {
  return canonicalIdentifier('cpf', value).value !== undefined;
}

/** Where an identifier stands in an update: a query parameter, or a body field by its path. */
export interface UpdateIdentifier {
  kind: IdentifierKind;
  /** `query` parameter or `body` field. */
  in: 'query' | 'body';
  /** The parameter's name, or the body field's path (`['address', 'postalCode']`). */
  path: readonly string[];
  /** The body field's JSON pointer (`/address/postalCode`), or the parameter's name: a ValidationIssue's path. */
  issuePath: string;
}

/** The identifiers of an update (the CPF in the query, the phone number and the CEP in the body). */
export const UPDATE_IDENTIFIERS: readonly UpdateIdentifier[] = [
  { kind: 'cpf', in: 'query', path: ['DocumentNumber'], issuePath: 'DocumentNumber' },
  { kind: 'phone', in: 'body', path: ['phoneNumber'], issuePath: '/phoneNumber' },
  { kind: 'cep', in: 'body', path: ['address', 'postalCode'], issuePath: '/address/postalCode' },
];

/** The identifier at a ValidationIssue's path of an update (`DocumentNumber`, `/phoneNumber`), if one stands there. */
export const updateIdentifierAt = (issuePath: string): UpdateIdentifier | undefined =>
  UPDATE_IDENTIFIERS.find((identifier) => identifier.issuePath === issuePath);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const segment of path) {
    if (!isRecord(node) || !Object.hasOwn(node, segment)) return undefined;
    node = node[segment];
  }
  return node;
}

/** A copy of `root` with `value` at `path` (every object on the way copied; the caller's untouched). */
function withValueAt(root: Record<string, unknown>, path: readonly string[], value: string): Record<string, unknown> {
  const [head, ...rest] = path as [string, ...string[]];
  const copy = { ...root };
  Object.defineProperty(copy, head, {
    value: rest.length === 0 ? value : withValueAt(root[head] as Record<string, unknown>, rest, value),
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}

/** An update with its identifiers in the contract's form, and the problems of those that cannot be. */
export interface CanonicalUpdate<Q, B> {
  query: Q;
  body: B;
  /** One per identifier that is text but cannot be made canonical; its `issuePath` names it. */
  problems: (IdentifierProblem & { issuePath: string })[];
}

/**
 * The query (`{ Account, DocumentNumber }`) and body of an update with every identifier written as the
 * contract sends it. An identifier that is absent or not text is left as it is, for the contract's
 * validators to name; one that is text but cannot be made canonical is left too, with its problem.
 */
export function canonicalUpdate<Q, B>(query: Q, body: B): CanonicalUpdate<Q, B> {
  const out = { query: query as unknown, body: body as unknown };
  const problems: CanonicalUpdate<Q, B>['problems'] = [];
  for (const identifier of UPDATE_IDENTIFIERS) {
    const value = valueAt(out[identifier.in], identifier.path);
    if (typeof value !== 'string') continue;
    const field = identifier.in === 'query' ? identifier.path[0]! : identifier.issuePath;
    const canonical = canonicalIdentifier(identifier.kind, value, field);
    if (canonical.problem) problems.push({ ...canonical.problem, issuePath: identifier.issuePath });
    else if (canonical.value !== value)
      out[identifier.in] = withValueAt(out[identifier.in] as Record<string, unknown>, identifier.path, canonical.value);
  }
  return { query: out.query as Q, body: out.body as B, problems };
}
