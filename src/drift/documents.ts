// The rules of a key record the contract's schemas do not express: a CPF's and a CNPJ's check digits,
// and the lower case of an e-mail key. The
// contract's patterns say the shape (`^[0-9A-Z]{12}[0-9]{2}$` for a CNPJ); a provider that sends a
// document whose check digits do not match has drifted just as surely. Checked wherever a key record
// names a document: the key of a `cpf` or `cnpj` key, and the holder's `document`, each by the type
// the record gives it (the same discriminators as the contract's branches). A value of the wrong
// shape is the schema's problem already, and is not reported twice.
import { cnpjProblem } from '../cnpj.js';
import { cpfProblem } from '../validation/cpf.js';
import type { DriftProblem } from '../call-events.js';

const CHECKS: Readonly<Record<string, { what: string; broken: (value: string) => boolean }>> = {
  cpf: { what: 'a CPF', broken: (value) => cpfProblem(value) !== undefined && /^[0-9]{11}$/.test(value) },
  cnpj: {
    what: 'a CNPJ',
    broken: (value) => {
      const problem = cnpjProblem(value);
      return problem === 'check-digits' || problem === 'repeated-character';
    },
  },
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

// An e-mail key is lower case in the key directory (bacen/pix-dict-api 1.8.0): said here, not as a
// pattern in the contract, where it broke the mock's generated keys (openapi/components/schemas/PixKey.yaml).
const UPPER_CASE = /[A-Z]/;

function checked(type: unknown, value: unknown, pointer: string, out: DriftProblem[]): void {
  if (type === 'email' && typeof value === 'string' && UPPER_CASE.test(value)) {
    out.push({ part: 'body', pointer, rule: 'must be in lower case (an e-mail key of the key directory)' });
    return;
  }
  if (typeof type !== 'string' || typeof value !== 'string') return;
  const check = Object.hasOwn(CHECKS, type) ? CHECKS[type] : undefined;
  if (check?.broken(value))
    out.push({ part: 'body', pointer, rule: `must be ${check.what} whose check digits match (module 11)` });
}

/** The check-digit problems of a key page's records (`data`, its first `sampleItems` when given). */
export function documentProblems(body: unknown, sampleItems?: number): DriftProblem[] {
  if (!isRecord(body) || !Array.isArray(body.data)) return [];
  const out: DriftProblem[] = [];
  const records = sampleItems === undefined ? body.data : body.data.slice(0, sampleItems);
  records.forEach((record: unknown, index) => {
    if (!isRecord(record)) return;
    checked(record.key_type, record.key, `/data/${index}/key`, out);
    const holder = record.beneficiary_entity;
    if (isRecord(holder))
      checked(holder.document_type, holder.document, `/data/${index}/beneficiary_entity/document`, out);
  });
  return out;
}
