// The generated types reject wrong shapes at compile time (vitest typecheck).
import { describe, expectTypeOf, it } from 'vitest';
import type * as Root from '../../src/index.js';
import type * as Contract from '../../src/types.js';
import type {
  Address,
  BeneficiaryDocumentType,
  BeneficiaryEntity,
  BrazilianState,
  NaturalPersonUpdate,
  PixKey,
  PixKeyList,
  UpdateNaturalPersonQuery,
} from '../../src/types.js';
import { createBaasClient } from '../../src/index.js';

const client = createBaasClient({ baseUrl: 'http://127.0.0.1:4010', token: 't' }).raw;
const address: Address = {
  postalCode: '01310100',
  street: 'Avenida Paulista',
  number: '1578',
  neighborhood: 'Bela Vista',
  city: 'São Paulo',
  state: 'SP',
};

describe('generated types', () => {
  it('state is the union of the 27 UFs', () => {
    expectTypeOf<BrazilianState>().toEqualTypeOf<
      | 'AC'
      | 'AL'
      | 'AP'
      | 'AM'
      | 'BA'
      | 'CE'
      | 'DF'
      | 'ES'
      | 'GO'
      | 'MA'
      | 'MT'
      | 'MS'
      | 'MG'
      | 'PA'
      | 'PB'
      | 'PR'
      | 'PE'
      | 'PI'
      | 'RJ'
      | 'RN'
      | 'RS'
      | 'RO'
      | 'RR'
      | 'SC'
      | 'SP'
      | 'SE'
      | 'TO'
    >();
    // @ts-expect-error 'XX' is not a UF
    const bad: Address = { ...address, state: 'XX' };
    void bad;
  });

  it('rejects a misspelled field in the update body', () => {
    // @ts-expect-error phoneNumber, not phone_number
    const body: NaturalPersonUpdate = { phone_number: '+5511987654321' };
    void body;
    expectTypeOf<NaturalPersonUpdate['isPoliticallyExposedPerson']>().toEqualTypeOf<boolean | undefined>();
  });

  it('requires the core address parts', () => {
    // @ts-expect-error city is required in an address
    const partial: Address = {
      postalCode: '01310100',
      street: 'Rua A',
      number: '1',
      neighborhood: 'Centro',
      state: 'SP',
    };
    void partial;
  });

  it('requires both Account and DocumentNumber', () => {
    expectTypeOf<UpdateNaturalPersonQuery>().toEqualTypeOf<{ Account: string; DocumentNumber: string }>();
    void client.PUT('/v2/api/baas-onboarding/account/natural-person', {
      // @ts-expect-error DocumentNumber is missing
      params: { query: { Account: '300541976902' } },
      body: { email: 'a@b.com' },
    });
  });

  it('types the key list response', () => {
    expectTypeOf<PixKeyList['data']>().toEqualTypeOf<PixKey[]>();
    expectTypeOf<PixKeyList['cursor']['next']>().toEqualTypeOf<string | null>();
    expectTypeOf<PixKey['beneficiary_entity']['document_type']>().toEqualTypeOf<'cpf' | 'cnpj'>();
    expectTypeOf<BeneficiaryDocumentType>().toEqualTypeOf<'cpf' | 'cnpj'>();
  });

  it('types a holder as one of two kinds, told apart by document_type', () => {
    const holder = {} as BeneficiaryEntity;
    if (holder.document_type === 'cnpj')
      expectTypeOf(holder).toEqualTypeOf<Extract<BeneficiaryEntity, { document_type: 'cnpj' }>>();
    // @ts-expect-error A third kind of holder is not in the contract.
    const rg: BeneficiaryEntity = { name: 'Maria', document_type: 'rg', document: '123' };
    expectTypeOf(rg).not.toBeAny();
  });

  it('are aliases of the generated components, and the empty ones are not exported', () => {
    expectTypeOf<Contract.PixKey>().toEqualTypeOf<Contract.components['schemas']['PixKey']>();
    expectTypeOf<Contract.ResponseNotFound>().toEqualTypeOf<Contract.components['responses']['NotFound']>();
    expectTypeOf<Contract.ParameterLimit>().toEqualTypeOf<Contract.components['parameters']['Limit']>();
    expectTypeOf<Contract.HeaderRetryAfter>().toEqualTypeOf<Contract.components['headers']['RetryAfter']>();
    // @ts-expect-error The spec has no webhooks: openapi-typescript's empty `webhooks` type is not exported.
    type NoWebhooks = Contract.webhooks;
    // @ts-expect-error Nor its empty `$defs`.
    type NoDefs = Contract.$defs;
    expectTypeOf<NoWebhooks | NoDefs>().toBeAny();
    // They live in baas-pix-contract/types, not in the root entry as well.
    // @ts-expect-error The root entry does not export the contract's aliases.
    type NotAtRoot = Root.PixKey;
    // @ts-expect-error Nor what they are aliases of.
    type NoComponentsAtRoot = Root.components;
    expectTypeOf<NotAtRoot | NoComponentsAtRoot>().toBeAny();
  });
});
