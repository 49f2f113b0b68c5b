// PixKey under Ajv's strict mode, as a user who validates key records with their own Ajv compiles it:
// the contract's schemas as JSON Schema `$defs`, its `x-` extensions declared as a vocabulary, and
// `strict: true` (strictTypes among it: a `pattern` or `format` on a branch with no `type` is refused).
// Then the key directory's rules (bacen/pix-dict-api 1.8.0) and the CNPJ of IN RFB nº 2.229/2024,
// read off the compiled schema: what a record may hold and what is drift.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { exampleValue } from '../support/fixtures.js';
import { spec } from '../support/spec.js';
import type { PixKey } from '../../src/types.js';

const extensions = new Set<string>();
function asJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([name, value]) => {
      if (name.startsWith('x-')) extensions.add(name);
      if (name === '$ref' && typeof value === 'string')
        return [name, value.replace('#/components/schemas/', '#/$defs/')];
      return [name, asJsonSchema(value)];
    }),
  );
}

const $defs = asJsonSchema(spec.components.schemas!) as Record<string, unknown>;

function strictPixKey() {
  const ajv = new Ajv2020.default({ strict: true, allErrors: true });
  addFormats.default(ajv);
  ajv.addVocabulary([...extensions]);
  // int32 is an OpenAPI format; every integer of the contract has bounds of its own.
  ajv.addFormat('int32', true);
  return ajv.compile({ $id: 'https://baas-pix-contract.test/schemas', $defs, $ref: '#/$defs/PixKey' });
}

const record = (patch: Partial<PixKey>): PixKey => ({
  ...structuredClone(exampleValue<{ data: PixKey[] }>('FirstPage').data[0]!),
  ...patch,
});

describe('PixKey under Ajv strict mode', () => {
  it('compiles', () => {
    expect(strictPixKey).not.toThrow();
  });

  it('gives every branch of the key a type, so generators read a string', () => {
    const branches = (
      spec.components.schemas!.PixKey.allOf[0].anyOf as { properties: { key?: { type?: string } } }[]
    ).map((branch) => branch.properties.key?.type);
    expect(branches).toEqual(branches.map(() => 'string'));
  });

  const validate = strictPixKey();
  const cnpjHolder = { name: 'Silva Comércio Ltda', document_type: 'cnpj' as const, document: '12ABC34501DE35' };

  it.each<[string, Partial<PixKey>]>([
    ['a lower-case e-mail key', { key_type: 'email', key: 'maria.silva@email.com.br' }],
    ['an e-mail key of 77 characters', { key_type: 'email', key: `${'a'.repeat(63)}@exampl.com.br` }],
    ['a lower-case EVP key', { key_type: 'evp', key: '3f1c2d9e-7b4a-4c61-9a8e-2b5d7f0c1a34' }],
    [
      'an alphanumeric CNPJ key (the RFB example)',
      { key_type: 'cnpj', key: '12ABC34501DE35', beneficiary_entity: cnpjHolder },
    ],
    [
      'a numeric CNPJ key',
      { key_type: 'cnpj', key: '11222333000181', beneficiary_entity: { ...cnpjHolder, document: '11222333000181' } },
    ],
    ['a key of a type not known yet', { key_type: 'pix_alias', key: 'anything at all' }],
  ])('accepts %s', (_case, patch) => {
    const ok = validate(record(patch));
    expect(ok, JSON.stringify(validate.errors)).toBe(true);
  });

  it.each<[string, Partial<PixKey>]>([
    ['an e-mail key of 78 characters', { key_type: 'email', key: `${'a'.repeat(64)}@exampl.com.br` }],
    ['a key of 78 characters of a type not known yet', { key_type: 'pix_alias', key: 'k'.repeat(78) }],
    ['an upper-case EVP key', { key_type: 'evp', key: '3F1C2D9E-7B4A-4C61-9A8E-2B5D7F0C1A34' }],
    ['a CNPJ key with lower-case letters', { key_type: 'cnpj', key: '12abc34501de35' }],
    ['a CNPJ key with letters in its check digits', { key_type: 'cnpj', key: '12ABC34501DE3A' }],
    [
      'a CNPJ holder with a formatted document',
      { beneficiary_entity: { ...cnpjHolder, document: '12.ABC.345/01DE-35' } },
    ],
  ])('refuses %s', (_case, patch) => {
    expect(validate(record(patch))).toBe(false);
  });

  it('measures the 77-character bound on the e-mail keys above', () => {
    expect(`${'a'.repeat(63)}@exampl.com.br`).toHaveLength(77);
    expect(`${'a'.repeat(64)}@exampl.com.br`).toHaveLength(78);
  });
});
