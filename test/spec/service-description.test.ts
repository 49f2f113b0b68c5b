// Every field, header and parameter of the service description (shared/seed) is in the bundled
// spec, with the name and type the description gives it.
import { describe, expect, it } from 'vitest';
import { deref, holderKinds, spec } from '../support/spec.js';
import { schemaErrors } from '../support/ajv.js';
import { firstPageKeys } from '../support/fixtures.js';

const schema = (name: string) => spec.components.schemas![name];
const typeOf = (node: any): string => {
  const s = deref<any>(node);
  if (s.type) return Array.isArray(s.type) ? s.type.join('|') : s.type;
  // An open enum is an anyOf of string schemas.
  const branches = (s.anyOf ?? []).map((b: any) => typeOf(b));
  return [...new Set(branches)].join('|');
};

const fields: [string, string, string][] = [
  ['NaturalPersonUpdate', 'phoneNumber', 'string'],
  ['NaturalPersonUpdate', 'email', 'string'],
  ['NaturalPersonUpdate', 'socialName', 'string'],
  ['NaturalPersonUpdate', 'isPoliticallyExposedPerson', 'boolean'],
  ['NaturalPersonUpdate', 'address', 'object'],
  ['Address', 'postalCode', 'string'],
  ['Address', 'street', 'string'],
  ['Address', 'number', 'string'],
  ['Address', 'addressComplement', 'string'],
  ['Address', 'neighborhood', 'string'],
  ['Address', 'city', 'string'],
  ['Address', 'state', 'string'],
  ['Address', 'longitude', 'string'],
  ['Address', 'latitude', 'string'],
  ['PixKey', 'id', 'string'],
  ['PixKey', 'key', 'string'],
  ['PixKey', 'key_type', 'string'],
  ['PixKey', 'key_status', 'string'],
  ['PixKey', 'account_id', 'string'],
  ['PixKey', 'beneficiary_account', 'object'],
  ['PixKey', 'beneficiary_entity', 'object'],
  ['BeneficiaryAccount', 'branch_code', 'string'],
  ['BeneficiaryAccount', 'account_code', 'string'],
  ['BeneficiaryAccount', 'account_type', 'string'],
  ['BeneficiaryAccount', 'created_at', 'string'],
  ['BeneficiaryEntity', 'name', 'string'],
  ['BeneficiaryEntity', 'document_type', 'string'],
  ['BeneficiaryEntity', 'document', 'string'],
  ['PixKeyList', 'cursor', 'object'],
  ['PixKeyList', 'data', 'array'],
];

/** The schemas a field is declared in: the component's own properties, or each of its `oneOf` branches (BeneficiaryEntity). */
const declarations = (component: string, field: string): unknown[] => {
  const s = schema(component);
  const branches: any[] = s?.oneOf ?? [s];
  return branches.map((branch) => branch?.properties?.[field]);
};

describe('service description fields', () => {
  it.each(fields)('%s.%s is a %s', (component, field, type) => {
    const properties = declarations(component, field);
    for (const property of properties) {
      expect(property, `${component}.${field}`).toBeDefined();
      expect(typeOf(property)).toBe(type);
    }
  });

  it('has the formats and shapes the description states', () => {
    expect(deref<any>(schema('PixKey').properties.id).format).toBe('uuid');
    expect(deref<any>(schema('PixKey').properties.account_id).format).toBe('uuid');
    expect(schema('BeneficiaryAccount').properties.created_at.format).toBe('date-time');
    expect(schema('BeneficiaryAccount').properties.created_at.pattern).toMatch(/Z\$$/);
    expect(schema('Address').properties.postalCode.pattern).toBe('^[0-9]{8}$');
    expect(schema('BrazilianState').enum).toHaveLength(27);
    expect(schema('KnownPixKeyType').enum).toEqual(expect.arrayContaining(['phone', 'email']));
    expect(schema('PixKey').properties.key_status.examples).toContain('active');
    expect(schema('BeneficiaryAccount').properties.account_type.examples).toContain('CC');
    expect(holderKinds()).toEqual(['cpf', 'cnpj']);
  });
});

describe('service description endpoints', () => {
  it('updates with PUT, Account and DocumentNumber both required, and bearer auth', () => {
    const put = spec.paths['/v2/api/baas-onboarding/account/natural-person']!.put;
    const params = put.parameters.map((p: unknown) => deref<any>(p));
    expect(params.map((p: any) => [p.name, p.in, p.required])).toEqual([
      ['Account', 'query', true],
      ['DocumentNumber', 'query', true],
    ]);
    expect(params.find((p: any) => p.name === 'DocumentNumber').schema.pattern).toBe('^[0-9]{11}$');
    expect(put.requestBody.required).toBe(true);
    expect(Object.keys(put.requestBody.content)).toEqual(['application/json']);
    expect(Object.keys(put.responses['200'].content)).toEqual(['application/json']);
  });

  it('lists with GET, a required User-Agent header, and 200 {cursor, data}', () => {
    const get = spec.paths['/v2/api/pix/keys/list-keys']!.get;
    const userAgent = get.parameters.map((p: unknown) => deref<any>(p)).find((p: any) => p.name === 'User-Agent');
    expect(userAgent).toMatchObject({ in: 'header', required: true });
    expect(get.requestBody).toBeUndefined();
    expect(deref<any>(get.responses['200'].content['application/json'].schema).required).toEqual(['cursor', 'data']);
  });

  it('applies the bearer scheme to every operation and keeps the v2 segment', () => {
    expect(spec.security).toEqual([{ BearerAuth: [] }]);
    expect(spec.components.securitySchemes!.BearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const path of Object.keys(spec.paths)) expect(path).toMatch(/^\/v2\/api\//);
  });

  it('serves the templated https base_url only (the local mock is documented, not listed: servers get real tokens)', () => {
    expect((spec.servers as { url: string }[]).map((s) => s.url)).toEqual(['{base_url}']);
    expect((spec.servers as any[])[0].variables.base_url.default).toMatch(/^https:\/\//);
  });
});

describe('conditional formats', () => {
  const key = firstPageKeys()[0]!;
  const check = (patch: Record<string, unknown>) => schemaErrors('/components/schemas/PixKey', { ...key, ...patch });

  it.each([
    ['phone', '+5511987654321', 'maria@email.com'],
    ['email', 'maria@email.com', '+5511987654321'],
    ['cpf', '52998224725', '529.982.247-25'],
    ['cnpj', '11222333000181', '52998224725'],
    ['evp', '123e4567-e89b-42d3-a456-426614174000', '123E4567-E89B-42D3-A456-426614174000'],
  ])('a %s key must look like one', (keyType, good, bad) => {
    expect(check({ key_type: keyType, key: good })).toEqual([]);
    expect(check({ key_type: keyType, key: bad })).not.toEqual([]);
  });

  it('a key type this contract does not know passes, as readers must tolerate it', () => {
    expect(check({ key_type: 'nfc_tag', key: 'anything', key_status: 'pending_portability' })).toEqual([]);
  });

  it('the document follows document_type', () => {
    const entity = (document_type: string, document: string) =>
      schemaErrors('/components/schemas/BeneficiaryEntity', { name: 'Maria', document_type, document });
    expect(entity('cpf', '52998224725')).toEqual([]);
    expect(entity('cnpj', '11222333000181')).toEqual([]);
    expect(entity('cpf', '11222333000181')).not.toEqual([]);
    expect(entity('cnpj', '52998224725')).not.toEqual([]);
  });
});
