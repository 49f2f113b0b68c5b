// The generated types reject wrong shapes at compile time (vitest typecheck).
import { describe, expectTypeOf, it } from 'vitest';
import type * as Root from '../../src/index.js';
import type { Contract } from '../../src/index.js';

// Through the public entry, as a consumer writes them: the generated aliases live in `Contract`.
type Address = Contract.Address;
type BeneficiaryEntity = Contract.BeneficiaryEntity;
type BrazilianState = Contract.BrazilianState;
type BeneficiaryDocumentType = Contract.BeneficiaryDocumentType;
type NaturalPersonUpdate = Contract.NaturalPersonUpdate;
type PixKey = Contract.PixKey;
type PixKeyList = Contract.PixKeyList;
type UpdateNaturalPersonQuery = Contract.UpdateNaturalPersonQuery;
import { createRawClient } from '../../src/client/raw.js';

const client = createRawClient({ baseUrl: 'http://127.0.0.1:4010' });
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

  it('are aliases of the generated components, in the Contract namespace; the root names only what the methods take and return', () => {
    expectTypeOf<Contract.PixKey>().toEqualTypeOf<Contract.components['schemas']['PixKey']>();
    expectTypeOf<Contract.ResponseNotFound>().toEqualTypeOf<Contract.components['responses']['NotFound']>();
    expectTypeOf<Contract.ParameterLimit>().toEqualTypeOf<Contract.components['parameters']['Limit']>();
    expectTypeOf<Contract.HeaderRetryAfter>().toEqualTypeOf<Contract.components['headers']['RetryAfter']>();
    expectTypeOf<Root.PixKey>().toEqualTypeOf<Contract.PixKey>();
    expectTypeOf<Root.NaturalPersonUpdate>().toEqualTypeOf<Contract.NaturalPersonUpdate>();
    expectTypeOf<Root.UpdateResult>().toEqualTypeOf<Contract.UpdateResult>();
    expectTypeOf<Root.PixKeyList>().toEqualTypeOf<Contract.PixKeyList>();
    expectTypeOf<Root.Problem>().toEqualTypeOf<Contract.Problem>();
    // @ts-expect-error A response alias is not a name of the root: Contract.ResponseNotFound.
    type NotAtRoot = Root.ResponseNotFound;
    // @ts-expect-error The spec has no webhooks: openapi-typescript's empty `webhooks` type is not exported.
    type NoWebhooks = Contract.webhooks;
    // @ts-expect-error Nor its empty `$defs`.
    type NoDefs = Contract.$defs;
    expectTypeOf<NotAtRoot | NoWebhooks | NoDefs>().toBeAny();
  });
});
