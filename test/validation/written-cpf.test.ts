// Identifiers as people write them (`529.982.247-25`, `+55 (11) 98765-4321`, `01310-100`) given to the
// typed client: sent in the contract's form. One that cannot be made canonical is a BaasValidationError
// before anything is sent, naming the field and the rule with an example, never showing the value in
// any of its spellings. Other issues of the same call are still reported beside it.
import { describe, expect, it } from 'vitest';
import { createBaasClient, BaasValidationError } from '../../src/index.js';

const WRITTEN = '529.982.247-25';

function spiedClient() {
  const sent: Request[] = [];
  const client = createBaasClient({
    baseUrl: 'https://api.example.test',
    token: 'written-cpf-token',
    fetch: async (input, init) => {
      sent.push(new Request(input, init));
      return new Response(null, { status: 204 });
    },
  });
  return { client, sent };
}

describe('updateNaturalPerson with identifiers as people write them', () => {
  it("sends the CPF, the phone number and the CEP in the contract's form, the caller's body untouched", async () => {
    const { client, sent } = spiedClient();
    const body = {
      phoneNumber: '+55 (11) 98765-4321',
      address: {
        postalCode: '01310-100',
        street: 'Avenida Paulista',
        number: '1578',
        neighborhood: 'Bela Vista',
        city: 'São Paulo',
        state: 'SP' as const,
      },
    };
    const copy = structuredClone(body);
    await client.updateNaturalPerson({ account: '300541976902', documentNumber: WRITTEN, body });
    expect(sent).toHaveLength(1);
    expect(new URL(sent[0]!.url).searchParams.get('DocumentNumber')).toBe('52998224725');
    const json = (await sent[0]!.json()) as typeof body;
    expect(json.phoneNumber).toBe('+5511987654321');
    expect(json.address.postalCode).toBe('01310100');
    expect(json.address.city).toBe('São Paulo');
    expect(body).toEqual(copy);
  });

  it('fails before sending a written CPF with a wrong check digit, naming DocumentNumber and the rule, without the CPF', async () => {
    const { client, sent } = spiedClient();
    const bad = '123.456.789-08';
    const error = await client
      .updateNaturalPerson({ account: '300541976902', documentNumber: bad, body: { email: 'not an e-mail' } })
      .catch((e: unknown) => e);
    expect(sent).toHaveLength(0);
    expect(error).toBeInstanceOf(BaasValidationError);
    const { issues, message } = error as BaasValidationError;
    expect(issues.map((issue) => issue.path).sort()).toEqual(['/email', 'DocumentNumber']);
    const documentIssue = issues.find((issue) => issue.path === 'DocumentNumber')!;
    // The form in words, its example a shape: the masking would hide a real CPF's digits, never a shape's.
    expect(documentIssue.message).toMatch(/check digits do not match.*e\.g\. ###\.###\.###-##\)/);
    expect(documentIssue.message).not.toContain('*');
    expect(documentIssue.message).not.toMatch(/pattern|\^|\[0-9\]/);
    const shown = `${message}\n${JSON.stringify(error)}\n${String(error)}`;
    for (const spelling of [bad, '12345678908', '123.456.789', '456.789-08']) expect(shown).not.toContain(spelling);
  });
});
