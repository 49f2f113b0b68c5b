// BeneficiaryEntity was reshaped for code generators (one complete object per kind of holder, instead
// of a base object with an enum `$ref` beside an `anyOf` of `const` branches). The validators must be
// exactly as strict as before: every holder the 0.2 schema accepted is accepted, and every one it
// rejected is rejected, by the generated response validators (full and fast) and by the bundled spec.
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { responseContract } from '../../src/generated/response-validators.js';
import { firstPageKeys } from '../support/fixtures.js';
import { schemaErrors } from '../support/ajv.js';
import before from './fixtures/beneficiary-entity-0.2.json' with { type: 'json' };

// The 0.2 schema, as it was bundled (documentation keywords left out): the oracle.
const strictBefore = new Ajv2020.default({ strict: false, allErrors: true }).compile(before);

const page = responseContract.listPixKeys!['200']!;
const full = page.contentTypes['application/json']!;
const fast = page.fastContentTypes['application/json']!;
const key = firstPageKeys()[0]!;
const inPage = (holder: unknown) => ({ cursor: { next: null }, data: [{ ...key, beneficiary_entity: holder }] });

const ABSENT = Symbol('absent');
const NAMES = [ABSENT, '', 'Maria Silva', 'Silva Comércio Ltda', 'x'.repeat(120), 'x'.repeat(121), 7, null];
const TYPES = [ABSENT, 'cpf', 'cnpj', 'CPF', 'Cnpj', 'rg', '', ' cpf', 11, null];
const DOCUMENTS = [
  ABSENT,
  '',
  ...Array.from({ length: 17 }, (_, n) => '52998224725112233'.slice(0, n)).filter(Boolean),
  '529.982.247-25',
  '11.222.333/0001-81',
  '5299822472a',
  '1122233300018a',
  ' 52998224725',
  '52998224725\n',
  '٥٢٩٩٨٢٢٤٧٢٥',
  52998224725,
  null,
];

/** Every combination of the fields above, plus an extra member and values that are not objects. */
function holders(): unknown[] {
  const out: unknown[] = [
    null,
    [],
    'Maria',
    52998224725,
    [{ name: 'Maria', document_type: 'cpf', document: '52998224725' }],
  ];
  for (const name of NAMES)
    for (const type of TYPES)
      for (const document of DOCUMENTS) {
        const holder: Record<string, unknown> = {};
        if (name !== ABSENT) holder.name = name;
        if (type !== ABSENT) holder.document_type = type;
        if (document !== ABSENT) holder.document = document;
        out.push(holder);
      }
  out.push({ name: 'Maria', document_type: 'cpf', document: '52998224725', nickname: 'Mari' });
  out.push({ name: 'Acme', document_type: 'cnpj', document: '11222333000181', founded: 1999 });
  return out;
}

describe('BeneficiaryEntity', () => {
  const cases = holders();

  it('accepts and rejects exactly what the 0.2 schema did, in the generated validators and the bundled spec', () => {
    const differ: string[] = [];
    let accepted = 0;
    for (const holder of cases) {
      const was = strictBefore(holder);
      if (was) accepted += 1;
      const now = {
        full: full(inPage(holder)),
        fast: fast(inPage(holder)),
        bundled: schemaErrors('/components/schemas/BeneficiaryEntity', holder).length === 0,
      };
      for (const [which, verdict] of Object.entries(now))
        if (verdict !== was) differ.push(`${which}: ${JSON.stringify(holder)} was ${was ? 'accepted' : 'rejected'}`);
    }
    expect(differ).toEqual([]);
    // Both verdicts are exercised: the three valid names with a valid holder of each kind, the two
    // with an extra member (allowed), and two thousand rejected ones.
    expect(cases.length).toBeGreaterThan(2000);
    expect(accepted).toBe(3 * 2 + 2);
  });

  it('ties the document to its kind: 11 digits for cpf, 14 for cnpj, nothing else', () => {
    const valid = (document_type: string, document: string) => full(inPage({ name: 'Maria', document_type, document }));
    expect([valid('cpf', '52998224725'), valid('cnpj', '11222333000181')]).toEqual([true, true]);
    expect([valid('cpf', '11222333000181'), valid('cnpj', '52998224725')]).toEqual([false, false]);
  });
});
