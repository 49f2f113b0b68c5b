// The columns of a spreadsheet of updates, derived from the contract: Account, DocumentNumber, then
// every field of the update body (NaturalPersonUpdate) in dotted form (address.city), each with the
// type the contract gives it. A header row is matched against them without regard to case or to the
// spaces around a name, so `Email` or ` EMAIL ` is the column email; a name that is none of them is
// refused once for the whole file, with the nearest one ("did you mean").
import { readBundledSpec } from '../../../shipped-files.js';
import { editDistance } from '../../../words.js';

export const ACCOUNT = 'Account';
export const DOCUMENT_NUMBER = 'DocumentNumber';

interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
}

export type ColumnType = 'string' | 'boolean';

/** The body's leaf fields of `spec` in dotted form, each with its type ($refs resolved, objects walked). */
export function bodyColumns(spec: { components?: { schemas?: Record<string, Schema> } }): Map<string, ColumnType> {
  const schemas = spec.components?.schemas ?? {};
  const resolve = (schema: Schema): Schema => {
    let current = schema;
    for (let hops = 0; current.$ref !== undefined && hops < 32; hops += 1)
      current = schemas[current.$ref.split('/').at(-1)!] ?? {};
    return current;
  };
  const columns = new Map<string, ColumnType>();
  const walk = (schema: Schema, prefix: string, depth: number) => {
    const resolved = resolve(schema);
    if (resolved.properties && depth < 8) {
      for (const [name, inner] of Object.entries(resolved.properties)) walk(inner, `${prefix}${name}.`, depth + 1);
      return;
    }
    columns.set(prefix.slice(0, -1), resolved.type === 'boolean' ? 'boolean' : 'string');
  };
  walk(schemas.NaturalPersonUpdate ?? {}, '', 0);
  return columns;
}

let body: Map<string, ColumnType> | undefined;
/** The bundled contract's body columns, read once. */
export const BODY_COLUMNS = (): Map<string, ColumnType> => (body ??= bodyColumns(readBundledSpec() as never));

/** Every column a header may name, as the contract spells it. */
export const knownColumns = (): string[] => [ACCOUNT, DOCUMENT_NUMBER, ...BODY_COLUMNS().keys()];

const key = (name: string): string => name.trim().toLowerCase();

// A header cell safe to repeat in a message: a name, not a value (a file without its header row starts with data).
// A hyphen inside, as pt-BR spreadsheets write E-mail; never first, so a CPF or a number stays unshown.
const PRINTABLE_NAME = /^[\p{L}_][\p{L}\p{N}_. -]{0,63}$/u;
/** Whether `name` (a header cell, a JSON key) is a name safe to repeat in a message, not a value. */
export const isPrintableName = (name: string): boolean => PRINTABLE_NAME.test(name.trim());

/** A name as spelt loosely: lower case, no accents, no spaces, `_`, `-` or `.` (`Postal Code`, `postal_code`). */
const loose = (name: string): string =>
  name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s_.-]/g, '');

/**
 * The names a Brazilian spreadsheet gives these columns (as `loose` spells them), for "did you mean" only:
 * a column is never taken under another name, but `CPF` or `Telefone` is told which one it is.
 */
const PORTUGUESE_NAMES: Readonly<Record<string, string>> = {
  conta: ACCOUNT,
  numerodaconta: ACCOUNT,
  cpf: DOCUMENT_NUMBER,
  documento: DOCUMENT_NUMBER,
  telefone: 'phoneNumber',
  celular: 'phoneNumber',
  nomesocial: 'socialName',
  pep: 'isPoliticallyExposedPerson',
  cep: 'address.postalCode',
  rua: 'address.street',
  logradouro: 'address.street',
  endereco: 'address.street',
  numero: 'address.number',
  complemento: 'address.addressComplement',
  bairro: 'address.neighborhood',
  cidade: 'address.city',
  municipio: 'address.city',
  uf: 'address.state',
  estado: 'address.state',
};

/**
 * The column `name` most likely means, for "did you mean": one spelt the same but for case, accents, spaces,
 * `_` or `-` (`Document Number`), an address field without its `address.` (`Postal Code`), the Portuguese
 * name a spreadsheet gives it (`CPF`, `Telefone`, `CEP`), or else the nearest (at most a third of its
 * letters apart).
 */
export function nearestColumn(name: string): string | undefined {
  const wanted = loose(name);
  const columns = knownColumns();
  const spelt =
    columns.find((column) => loose(column) === wanted) ??
    columns.find((column) => loose(column.split('.').at(-1)!) === wanted) ??
    (Object.hasOwn(PORTUGUESE_NAMES, wanted) ? PORTUGUESE_NAMES[wanted] : undefined);
  if (spelt !== undefined && columns.includes(spelt)) return spelt;
  let best: string | undefined;
  let distance = Number.POSITIVE_INFINITY;
  for (const column of knownColumns()) {
    const d = editDistance(key(name), column.toLowerCase());
    if (d < distance) {
      best = column;
      distance = d;
    }
  }
  return distance <= Math.max(2, Math.floor(key(name).length / 3)) ? best : undefined;
}

export type HeaderMatch = { columns: string[] } | { unknown: { index: number; name: string; nearest?: string }[] };

/** The header row's columns as the contract spells them, or the cells that name no column. */
export function matchHeader(header: readonly string[]): HeaderMatch {
  const byKey = new Map(knownColumns().map((column) => [column.toLowerCase(), column]));
  const columns: string[] = [];
  const unknown: { index: number; name: string; nearest?: string }[] = [];
  header.forEach((cell, index) => {
    const column = byKey.get(key(cell));
    if (column !== undefined) columns.push(column);
    else {
      const nearest = nearestColumn(cell);
      unknown.push({ index, name: cell, ...(nearest ? { nearest } : {}) });
    }
  });
  return unknown.length > 0 ? { unknown } : { columns };
}

/** The spreadsheet's name of column `index` (from 0): A, B, …, Z, AA, … */
export function columnLetter(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** How an unknown header cell is named in a message: its text when it is a name, else only its column. */
export const shownName = (cell: { index: number; name: string }): string =>
  isPrintableName(cell.name)
    ? `"${cell.name.trim()}" (column ${columnLetter(cell.index)})`
    : `column ${columnLetter(cell.index)}`;

interface ParameterSpec {
  components?: { parameters?: Record<string, { name?: string; schema?: { pattern?: string; examples?: string[] } }> };
}

/** The columns the contract gives a fixed number of digits (`^[0-9]{N}$`): DocumentNumber (a CPF), address.postalCode (a CEP). */
export function fixedDigitColumns(spec: ParameterSpec & Parameters<typeof bodyColumns>[0]): Map<string, number> {
  const fixed = new Map<string, number>();
  const lengthOf = (pattern: string | undefined) => /^\^\[0-9\]\{([0-9]+)\}\$$/.exec(pattern ?? '')?.[1];
  for (const parameter of Object.values(spec.components?.parameters ?? {})) {
    const length = lengthOf(parameter.schema?.pattern);
    if (parameter.name === DOCUMENT_NUMBER && length) fixed.set(DOCUMENT_NUMBER, Number(length));
  }
  const schemas = (spec.components?.schemas ?? {}) as Record<string, Schema & { pattern?: string }>;
  const walk = (schema: Schema & { pattern?: string }, prefix: string, depth: number) => {
    let resolved = schema;
    for (let hops = 0; resolved.$ref !== undefined && hops < 32; hops += 1)
      resolved = schemas[resolved.$ref.split('/').at(-1)!] ?? {};
    if (resolved.properties && depth < 8) {
      for (const [name, inner] of Object.entries(resolved.properties)) walk(inner, `${prefix}${name}.`, depth + 1);
      return;
    }
    const length = lengthOf(resolved.pattern);
    if (length) fixed.set(prefix.slice(0, -1), Number(length));
  };
  walk(schemas.NaturalPersonUpdate ?? {}, '', 0);
  return fixed;
}

let fixed: Map<string, number> | undefined;

/** How many digits `column` takes when the contract fixes it, and an example that starts with a zero. */
export function fixedDigits(column: string): { length: number; example: string } | undefined {
  fixed ??= fixedDigitColumns(readBundledSpec() as never);
  const length = fixed.get(column);
  if (length === undefined) return undefined;
  // A CPF with a leading zero whose check digits hold (012.345.678-90); for other lengths zeros then digits.
  const example =
    column === DOCUMENT_NUMBER && length === 11 ? '01234567890' : `0${'1234567890'.repeat(3)}`.slice(0, length);
  return { length, example };
}
