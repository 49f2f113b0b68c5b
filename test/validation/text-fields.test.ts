// Every text field of the update body refuses control characters (Unicode's Cc: U+0000–U+001F and
// U+007F–U+009F): the client's BaasValidationError, with nothing sent, and the sandbox's 422.
import { describe, expect, it } from 'vitest';
import { createBaasClient, BaasValidationError } from '../../src/index.js';
import { createSandbox } from '../../src/sandbox/index.js';

const ADDRESS = {
  postalCode: '01310100',
  street: 'Avenida Paulista',
  number: '1000',
  neighborhood: 'Bela Vista',
  city: 'São Paulo',
  state: 'SP',
};
const FIELDS: Array<[string, (text: string) => Record<string, unknown>]> = [
  ['/socialName', (text) => ({ socialName: text })],
  ...(['street', 'number', 'addressComplement', 'neighborhood', 'city'] as const).map(
    (name) =>
      [`/address/${name}`, (text: string) => ({ address: { ...ADDRESS, [name]: text } })] as [
        string,
        (text: string) => Record<string, unknown>,
      ],
  ),
];
// The class's edges and a few inside it: NUL, TAB, LF, ESC, US, DEL, NEL, U+009F.
const CONTROLS = ['\u0000', '\t', '\n', '\u001b', '\u001f', '\u007f', '\u0085', '\u009f'];

describe('text fields refuse control characters', () => {
  it.each(FIELDS)('%s: a BaasValidationError naming the field and the rule, nothing sent', async (pointer, body) => {
    let sent = 0;
    const client = createBaasClient({
      baseUrl: 'https://provider.test',
      token: 'tok',
      fetch: async () => {
        sent += 1;
        return new Response(null, { status: 204 });
      },
    });
    for (const control of CONTROLS) {
      const error = await client
        .updateNaturalPerson({
          account: '12345678',
          documentNumber: '52998224725',
          body: body(`Ma${control}ria`) as never,
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BaasValidationError);
      expect((error as BaasValidationError).issues).toContainEqual(
        expect.objectContaining({
          path: pointer,
          message: expect.stringContaining('must not hold a control character'),
        }),
      );
    }
    expect(sent).toBe(0);
  });

  it('the characters just outside the class are taken (space, U+00A0, U+2028 is not Cc)', async () => {
    const client = createBaasClient({
      baseUrl: 'https://provider.test',
      token: 'tok',
      fetch: async () => new Response(null, { status: 204 }),
    });
    for (const text of ['Maria Silva', 'Maria\u00a0Silva', 'Mar\u00eda', '\u0020x\u007e'])
      await expect(
        client.updateNaturalPerson({ account: '12345678', documentNumber: '52998224725', body: { socialName: text } }),
      ).resolves.toBeUndefined();
  });

  it('the sandbox answers a NUL in socialName with a 422 naming the field', async () => {
    const sandbox = createSandbox();
    const { token } = sandbox.clients[0]!;
    const account = sandbox.clients[0]!.accounts[0]!;
    const response = await sandbox.fetch(
      `https://sandbox.test/v2/api/baas-onboarding/account/natural-person?Account=${account.account}&DocumentNumber=${account.documentNumber}`,
      {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ socialName: 'Maria\u0000Silva' }),
      },
    );
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ violations: [expect.objectContaining({ property: '/socialName' })] });
  });
});
