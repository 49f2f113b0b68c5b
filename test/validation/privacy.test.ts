// A message may end up in logs and bug reports: it names the field and the rule, never the value.
import { describe, expect, it } from 'vitest';
import {
  validateListPixKeysQuery,
  validateNaturalPersonUpdate,
  validateUpdateNaturalPersonQuery,
} from '../../src/index.js';
import { fullUpdate } from '../support/fixtures.js';

const VALID_ACCOUNT_WITH_LETTERS = '3005419769AB';
const WRONG_CPF = '52998224715';
const LONG_CPF = '529982247251';
const PHONE = '11987654321';
const EMAIL = 'maria.silva@';
const STREET = 'R'.repeat(121);
const CURSOR = 'secret cursor';

describe('messages never hold the rejected value', () => {
  it('for a CPF, a phone, an e-mail, an address and a cursor', () => {
    const issues = [
      ...validateUpdateNaturalPersonQuery({ Account: VALID_ACCOUNT_WITH_LETTERS, DocumentNumber: WRONG_CPF }),
      ...validateUpdateNaturalPersonQuery({ Account: '1', DocumentNumber: LONG_CPF }),
      ...validateNaturalPersonUpdate({
        ...fullUpdate(),
        phoneNumber: PHONE,
        email: EMAIL,
        address: { ...fullUpdate().address, street: STREET, state: 'Sao Paulo' },
      }),
      ...validateListPixKeysQuery({ cursor: CURSOR }),
    ];
    expect(issues.map((i) => i.path)).toEqual(
      expect.arrayContaining([
        'Account',
        'DocumentNumber',
        '/phoneNumber',
        '/email',
        '/address/street',
        '/address/state',
        'cursor',
      ]),
    );
    const text = issues.map((i) => `${i.path} ${i.message}`).join('\n');
    for (const value of [VALID_ACCOUNT_WITH_LETTERS, WRONG_CPF, LONG_CPF, PHONE, EMAIL, STREET, 'Sao Paulo', CURSOR])
      expect(text).not.toContain(value);
  });

  // The first three codes, the schema's, whatever the value: enough to show the spelling (`sp` is refused
  // for `SP`), never the value nor the whole list.
  it("nor the list of 27 UF codes: the schema's first three only, the same for any value", () => {
    const messageFor = (state: string) =>
      validateNaturalPersonUpdate({ address: { ...fullUpdate().address, state } })[0]?.message;
    expect(messageFor('XX')).toMatch(/: AC, AL, AP, …$/);
    expect(messageFor('XX')!.match(/\b[A-Z]{2}\b/g)).toEqual(['AC', 'AL', 'AP']);
    expect(messageFor('sp')).toBe(messageFor('XX'));
    expect(messageFor('to')).not.toMatch(/\b(SP|TO)\b/);
  });
});
