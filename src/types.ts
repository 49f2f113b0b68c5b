// Named aliases of the generated components. Never re-declare a shape here: change the spec.
import type { components, operations, paths } from './generated/schema.js';

type Schemas = components['schemas'];

export type { components, operations, paths };

export type NaturalPersonUpdate = Schemas['NaturalPersonUpdate'];
export type Address = Schemas['Address'];
export type BrazilianState = Schemas['BrazilianState'];
export type PhoneNumber = Schemas['PhoneNumber'];
export type Coordinate = Schemas['Coordinate'];
export type UpdateResult = Schemas['UpdateResult'];
export type PixKey = Schemas['PixKey'];
export type PixKeyList = Schemas['PixKeyList'];
export type PixKeyType = Schemas['PixKeyType'];
export type KnownPixKeyType = Schemas['KnownPixKeyType'];
export type Cursor = Schemas['Cursor'];
export type BeneficiaryAccount = Schemas['BeneficiaryAccount'];
export type BeneficiaryEntity = Schemas['BeneficiaryEntity'];
export type DocumentType = Schemas['DocumentType'];
export type Problem = Schemas['Problem'];
export type Violation = Schemas['Violation'];

export type UpdateNaturalPersonQuery = operations['updateNaturalPerson']['parameters']['query'];
export type ListPixKeysQuery = NonNullable<operations['listPixKeys']['parameters']['query']>;
