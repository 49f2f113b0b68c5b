// Open enums of the spec (a known list that new values may join) keep their known values visible:
// `'cpf' | 'cnpj' | 'email' | 'phone' | 'evp' | (string & {})`, not a `string` that hides them. An editor
// completes the known ones; any other string still compiles.
import { describe, expectTypeOf, it } from 'vitest';
import type { KnownPixKeyType, PixKey, PixKeyType } from '../../src/types.js';

describe('PixKey key_type, an open enum', () => {
  it('is not plain string, and lists the five regulated types', () => {
    expectTypeOf<PixKey['key_type']>().not.toEqualTypeOf<string>();
    expectTypeOf<PixKeyType>().not.toEqualTypeOf<string>();
    expectTypeOf<KnownPixKeyType>().toEqualTypeOf<'cpf' | 'cnpj' | 'email' | 'phone' | 'evp'>();
    // The known values are members of the union itself, which is what an editor offers.
    expectTypeOf<Extract<PixKey['key_type'], 'phone'>>().toEqualTypeOf<'phone'>();
    expectTypeOf<Exclude<PixKeyType, KnownPixKeyType>>().toEqualTypeOf<string & {}>();
  });

  it('accepts a known value and an unknown one, and rejects what is not a string', () => {
    expectTypeOf<'phone'>().toExtend<PixKey['key_type']>();
    expectTypeOf<'a_type_from_2030'>().toExtend<PixKey['key_type']>();
    expectTypeOf<string>().toExtend<PixKeyType>();
    expectTypeOf<number>().not.toExtend<PixKeyType>();
  });
});
