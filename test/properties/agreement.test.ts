<<<<<<< HEAD
// The types, the pre-flight validators and the mock are three readers of one contract. Generated
// valid requests must pass all of them; a valid request with exactly one rule broken must be
// rejected by the validators and by the mock, at the same field. The differences the mock cannot
// help (CPF check digits, Prism's leniency about query parameter names and empty values) are
// asserted explicitly, so they are known rather than hidden.
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  BaasApiError,
  createBaasClient,
  isValidCpf,
  validateListPixKeysQuery,
  validateNaturalPersonUpdate,
  validateUpdateNaturalPersonQuery,
} from '../../src/index.js';
import type { NaturalPersonUpdate } from '../../src/types.js';
import {
  ADDRESS_PROPERTIES,
  BODY_PROPERTIES,
  BRAZILIAN_STATES,
  CURSOR_MAX_LENGTH,
  FREE_TEXT_FIELDS,
  LIMIT_RANGE,
  REQUIRED_ADDRESS_FIELDS,
  STRING_FIELDS,
  account,
  cpf,
  cpfWithWrongCheckDigit,
  digits,
  e164,
  fullNaturalPersonUpdate,
  listQuery,
  naturalPersonUpdate,
  repeatedDigitCpf,
  stringSchemaAt,
  textOfLength,
} from '../support/arbitraries.js';
import { preflightUpdate } from '../../src/validation/index.js';
import { exampleValue } from '../support/fixtures.js';
import { TEST_TOKEN, TEST_USER_AGENT, mockUrl } from '../support/mock.js';
import { comparablePaths, prismPaths } from '../support/prism-violations.js';
import { OPERATIONS } from '../support/operations.js';
=======
// Validators, types and mock agree (agreement.property.ts), quick: a tenth of the runs, same seed,
// against npm test's shared Prism. The full runs: agreement.matrix.test.ts.
import { mockUrl } from '../support/mock.js';
import { agreementProperties } from './agreement.property.js';
>>>>>>> main

agreementProperties('quick', mockUrl);
