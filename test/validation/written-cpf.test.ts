// A CPF as people write it (`529.982.247-25`) given to the typed client: a ValidationError before
// anything is sent, naming DocumentNumber and the digits-only rule, never showing the CPF in any of
// its spellings. Other issues of the same call are still reported beside it.
import { describe, expect, it } from 'vitest';
import { createBaasClient, ValidationError } from '../../src/index.js';

const WRITTEN = '529.982.247-25';

describe('updateNaturalPerson with a written CPF', () => {
  it('fails before sending, naming DocumentNumber and the rule, without the CPF', async () => {
    let sent = 0;
    const client = createBaasClient({
      baseUrl: 'https://api.example.test',
      token: 'written-cpf-token',
      fetch: async () => {
        sent += 1;
        return new Response(null, { status: 204 });
      },
    });
    const error = await client
      .updateNaturalPerson({ account: '300541976902', documentNumber: WRITTEN, body: { email: 'not an e-mail' } })
      .catch((e: unknown) => e);
    expect(sent).toBe(0);
    expect(error).toBeInstanceOf(ValidationError);
    const { issues, message } = error as ValidationError;
    expect(issues.map((issue) => issue.path).sort()).toEqual(['/email', 'DocumentNumber']);
    const documentIssue = issues.find((issue) => issue.path === 'DocumentNumber')!;
    expect(documentIssue.message).toMatch(/digits only/);
    expect(documentIssue.message).not.toMatch(/pattern|characters/);
    const shown = `${message}\n${JSON.stringify(error)}\n${String(error)}`;
    for (const spelling of [WRITTEN, '52998224725', '529.982.247', '982.247']) expect(shown).not.toContain(spelling);
  });
});
