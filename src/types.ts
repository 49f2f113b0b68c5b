// `baas-pix-contract/types`: the contract's named types, an entry of their own (types only; its
// JavaScript is empty). A namespace at the root (`Contract.PixKey`) broke tsup's declaration bundle.
// Named aliases of the generated components come from openapi-typescript's `rootTypes` (one per
// schema, response, parameter and header), and the per-operation query types from the generated
// operation table. Nothing here restates a shape: change the spec and run `npm run generate`.
export type * from './generated/schema.js';
export type { UpdateNaturalPersonQuery, ListPixKeysQuery } from './generated/operations.js';

import type { BeneficiaryEntity } from './generated/schema.js';
/** `cpf` or `cnpj`: the kind of a key holder's document. The spec has one branch of `BeneficiaryEntity` per kind (it had a schema named `BeneficiaryDocumentType` up to 0.2; the name is the DOM's). */
export type BeneficiaryDocumentType = BeneficiaryEntity['document_type'];
