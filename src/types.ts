// The contract's types, which the root entry exports as the namespace `Contract` (`Contract.PixKey`,
// `Contract.ResponseNotFound`, `Contract.paths`): one named alias per component of the spec, from
// openapi-typescript's `rootTypes` (schemas, responses, parameters, headers), and the per-operation query
// types of the generated operation table. Nothing here restates a shape: change the spec and run
// `npm run generate`. The root also exports, by name, the few of them its signatures use (src/index.ts).
export type * from './generated/schema.js';
export type { UpdateNaturalPersonQuery, ListPixKeysQuery } from './generated/operations.js';

import type { BeneficiaryEntity } from './generated/schema.js';
/** `cpf` or `cnpj`: the kind of a key holder's document. The spec has one branch of `BeneficiaryEntity` per kind (it had a schema named `DocumentType` up to 0.2; the name is the DOM's). */
export type BeneficiaryDocumentType = BeneficiaryEntity['document_type'];
