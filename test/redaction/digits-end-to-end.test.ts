// The digit table end to end, through the public entry: a provider echoing a CPF written in Kaktovik
// numerals (digits since the table is written from the Unicode Character Database; the older source of
// the data had no value for them) in a 422's body shows it on no surface of the error, and a text
// holding U+0D5D MALAYALAM FRACTION THREE TWENTIETHS (worth 3/20, read as 1 by the older source) in a
// digit's place is no CPF: it is shown, not masked.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BaasApiError, createBaasClient } from '../../src/index.js';

const kaktovik = (digits: string) => [...digits].map((d) => String.fromCodePoint(0x1d2c0 + Number(d))).join('');

/** Every surface of the error a provider's 422 with this detail makes. */
async function errorSurfaces(detail: string): Promise<string> {
  const client = createBaasClient({
    baseUrl: 'https://provider.test',
    token: 'sbx_digits-end-to-end-0123456789',
    retry: false,
    fetch: async () =>
      Response.json(
        { type: 'about:blank', title: 'Unprocessable', status: 422, detail, errors: { [detail]: detail } },
        { status: 422, headers: { 'content-type': 'application/problem+json' } },
      ),
  });
  const error = await client.listPixKeys({ limit: 5 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(BaasApiError);
  const api = error as BaasApiError;
  return [api.message, String(api), api.stack, JSON.stringify(api.toJSON()), inspect(api, { showHidden: true })].join(
    '\n',
  );
}

describe('digits of the Unicode data, through createBaasClient', () => {
  it('a CPF in Kaktovik digits echoed in an error body is masked on every surface', async () => {
    const shown = await errorSurfaces(
      `holder ${kaktovik('529')}.${kaktovik('982')}.${kaktovik('247')}-${kaktovik('25')}`,
    );
    expect(shown).toContain('***.***.***-25');
    expect(shown).not.toContain(kaktovik('529'));
    expect(shown).not.toMatch(/529\.?982/);
  });

  it('U+0D5D (3/20) is no digit: ten digits and it are no CPF, and are shown', async () => {
    const shown = await errorSurfaces(`holder 529.982.247-2\u0d5d`);
    expect(shown).toContain('529.982.247-2\u0d5d');
    expect(shown).not.toContain('***');
  });
});
