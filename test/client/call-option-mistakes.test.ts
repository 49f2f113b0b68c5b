// A per-call option named wrongly shares its object with the operation's input (`{ cursor, signal,
// timeoutMS }`), so no type check stops it in JavaScript: each is refused before anything is sent, as a
// BaasOptionError naming the operation, the member and the option meant. The names refused are the call
// options' own declaration (CALL_OPTION_RULES) in other letters or a few edits away, other libraries'
// names for one (`abortSignal`), and the retry settings (`maxAttempts`, `maxRetries`), which go in
// `retry`. Any other member is left alone: it may be the caller's own data spread in.
import { describe, expect, it } from 'vitest';
import { createBaasClient, isBaasOptionError } from '../../src/index.js';
import { fullUpdate, VALID_ACCOUNT, VALID_CPF } from '../support/fixtures.js';

function client() {
  const sent: string[] = [];
  const baas = createBaasClient({
    baseUrl: 'https://api.example',
    token: 'tok_abcdef123456',
    retry: false,
    fetch: async (url) => {
      sent.push(String(url));
      return url.includes('list-keys')
        ? Response.json({ data: [], cursor: { next: null } })
        : Response.json({ status: 'updated' });
    },
  });
  return { baas, sent };
}

const signal = new AbortController().signal;

const refusal = async (call: () => Promise<unknown>) =>
  call().then(
    () => undefined,
    (error: unknown) => error,
  );

describe('a per-call option named wrongly is refused, naming the one meant', () => {
  it.each([
    [{ timeoutMS: 5_000 }, 'timeoutMS', 'is not an option; did you mean timeoutMs?'],
    [{ timeout: 5_000 }, 'timeout', 'is not an option; did you mean timeoutMs?'],
    [{ singal: signal }, 'singal', 'is not an option; did you mean signal?'],
    [{ abortSignal: signal }, 'abortSignal', 'is not an option; did you mean signal?'],
    [{ header: { 'X-Request-Id': 'r-1' } }, 'header', 'is not an option; did you mean headers?'],
    [{ maxAttempts: 5 }, 'maxAttempts', 'is not an option here; it goes in retry: { maxAttempts }'],
    [{ maxRetries: 5 }, 'maxRetries', 'is not an option here; it goes in retry: { maxAttempts }'],
    [{ retries: 5 }, 'retries', 'is not an option here; it goes in retry: { maxAttempts }'],
    [{ baseDelayMs: 5 }, 'baseDelayMs', 'is not an option here; it goes in retry: { baseDelayMs }'],
  ])('%o', async (mistake, option, rule) => {
    for (const operation of ['listPixKeys', 'updateNaturalPerson'] as const) {
      const { baas, sent } = client();
      const error = await refusal(() =>
        operation === 'listPixKeys'
          ? baas.listPixKeys({ limit: 10, signal, ...mistake } as never)
          : baas.updateNaturalPerson({
              account: VALID_ACCOUNT,
              documentNumber: VALID_CPF,
              body: fullUpdate(),
              signal,
              ...mistake,
            } as never),
      );
      expect(isBaasOptionError(error), `${operation}: a BaasOptionError`).toBe(true);
      expect(error).toMatchObject({ where: operation, option, rule });
      expect((error as Error).message).toBe(`${operation}: ${option} ${rule}`);
      expect(sent).toEqual([]);
    }
    // pixKeys() takes only options: the same names, the same words.
    const { baas, sent } = client();
    const error = await refusal(async () => {
      for await (const _ of baas.pixKeys({ signal, ...mistake } as never));
    });
    expect(error).toMatchObject({ where: 'pixKeys', option, rule });
    expect(sent).toEqual([]);
  });

  it("a retry setting misspelt inside the call's retry names the operation", async () => {
    const { baas, sent } = client();
    const error = await refusal(() => baas.listPixKeys({ retry: { maxAttemps: 2 } } as never));
    expect((error as Error).message).toBe('listPixKeys: retry.maxAttemps is not an option; did you mean maxAttempts?');
    expect(sent).toEqual([]);
  });

  it("any other member is left alone: the caller's data spread into the input", async () => {
    const { baas, sent } = client();
    const account = { accountId: 'acc-1', account: VALID_ACCOUNT, documentNumber: VALID_CPF, label: 'Ana' };
    await baas.updateNaturalPerson({ ...account, body: fullUpdate(), signal } as never);
    await baas.listPixKeys({ limit: 10, requestId: 'r-1' } as never);
    expect(sent).toHaveLength(2);
  });
});
