// Bad input never leaves the process: the client throws BaasValidationError and fetch is never called.
import { describe, expect, it, vi } from 'vitest';
import { BaasValidationError, createBaasClient, isBaasOptionError } from '../../src/index.js';
import type { NaturalPersonUpdate } from '../../src/types.js';
import { VALID_ACCOUNT, VALID_CPF, fullUpdate } from '../support/fixtures.js';

function clientWithSpy(validate = true) {
  const fetchSpy = vi.fn<(url: string, init: RequestInit) => Promise<Response>>(async () =>
    Response.json({ version: '1.0.0', status: 'SUCCESS' }),
  );
  return {
    fetchSpy,
    client: createBaasClient({ baseUrl: 'https://api.test', token: 'preflight-token', fetch: fetchSpy, validate }),
  };
}

const withAddress = (patch: Record<string, unknown>) => {
  const body = fullUpdate();
  return { ...body, address: { ...body.address, ...patch } } as NaturalPersonUpdate;
};

describe('pre-flight validation', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['bad phone', { ...fullUpdate(), phoneNumber: '11987654321' }, '/phoneNumber'],
    ['bad e-mail', { ...fullUpdate(), email: 'not-an-email' }, '/email'],
    ['unknown UF', withAddress({ state: 'XX' }), '/address/state'],
    ['7-digit CEP', withAddress({ postalCode: '0131010' }), '/address/postalCode'],
    ['non-numeric latitude', withAddress({ latitude: '23S' }), '/address/latitude'],
    ['long social name', { socialName: 'x'.repeat(121) }, '/socialName'],
    ['PEP flag as text', { isPoliticallyExposedPerson: 'no' }, '/isPoliticallyExposedPerson'],
    ['unknown property', { ...fullUpdate(), fullName: 'Maria' }, '/fullName'],
    ['empty body', {}, ''],
  ])('rejects %s without sending', async (_rule, body, path) => {
    const { client, fetchSpy } = clientWithSpy();
    const error = await client
      .updateNaturalPerson({ account: VALID_ACCOUNT, documentNumber: VALID_CPF, body: body as NaturalPersonUpdate })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasValidationError);
    expect((error as BaasValidationError).issues.map((i) => i.path)).toContain(path);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it.each([
    ['10-digit DocumentNumber', VALID_ACCOUNT, '5299822472', 'DocumentNumber'],
    ['wrong CPF check digit', VALID_ACCOUNT, '52998224724', 'DocumentNumber'],
    ['repeated-digit CPF', VALID_ACCOUNT, '11111111111', 'DocumentNumber'],
    ['Account with letters', '30054A', VALID_CPF, 'Account'],
    ['empty Account', '', VALID_CPF, 'Account'],
  ])('rejects %s', async (_rule, account, documentNumber, path) => {
    const { client, fetchSpy } = clientWithSpy();
    const error = (await client
      .updateNaturalPerson({ account, documentNumber, body: fullUpdate() })
      .catch((e: unknown) => e)) as BaasValidationError;
    expect(error).toBeInstanceOf(BaasValidationError);
    expect(error.kind).toBe('validation');
    expect(error.issues.map((i) => i.path)).toContain(path);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('lists every problem at once', async () => {
    const { client } = clientWithSpy();
    const body = { ...withAddress({ state: 'XX', postalCode: '1' }), phoneNumber: '0' };
    const error = (await client
      .updateNaturalPerson({ account: 'x', documentNumber: '1', body })
      .catch((e: unknown) => e)) as BaasValidationError;
    const paths = new Set(error.issues.map((i) => i.path));
    expect([...paths]).toEqual(
      expect.arrayContaining(['Account', 'DocumentNumber', '/address/state', '/address/postalCode', '/phoneNumber']),
    );
  });

  it.each([
    ['limit 0', { limit: 0 }, 'limit'],
    ['limit 201', { limit: 201 }, 'limit'],
    ['cursor with spaces', { cursor: 'a b' }, 'cursor'],
  ])('rejects listPixKeys with %s', async (_rule, query, path) => {
    const { client, fetchSpy } = clientWithSpy();
    const error = (await client.listPixKeys(query).catch((e: unknown) => e)) as BaasValidationError;
    expect(error.issues.map((i) => i.path)).toContain(path);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('sends a valid update', async () => {
    const { client, fetchSpy } = clientWithSpy();
    await expect(
      client.updateNaturalPerson({ account: VALID_ACCOUNT, documentNumber: VALID_CPF, body: fullUpdate() }),
    ).resolves.toEqual({
      version: '1.0.0',
      status: 'SUCCESS',
    });
    const [url, init] = fetchSpy.mock.calls[0]!;
    expect(init.method).toBe('PUT');
    expect(new URL(url).searchParams.get('DocumentNumber')).toBe(VALID_CPF);
    expect(JSON.parse(init.body as string)).toEqual(fullUpdate());
  });

  it('validate: false sends what it is given', async () => {
    const { client, fetchSpy } = clientWithSpy(false);
    await client.updateNaturalPerson({
      account: VALID_ACCOUNT,
      documentNumber: '52998224724',
      body: {} as NaturalPersonUpdate,
    });
    expect(fetchSpy).toHaveBeenCalledTimes(1);
  });
});

// A JavaScript caller has no type check: `{ Account, DocumentNumber }`, the contract's names, used to be
// ignored and reported as "Account is required", though Account was given.
describe('an input member named in other letters', () => {
  it.each<[string, (client: ReturnType<typeof clientWithSpy>['client']) => Promise<unknown>, string, string]>([
    [
      'Account and DocumentNumber, the query names',
      (client) =>
        client.updateNaturalPerson({ Account: VALID_ACCOUNT, DocumentNumber: VALID_CPF, body: fullUpdate() } as never),
      'Account',
      'did you mean account?',
    ],
    ['Limit', (client) => client.listPixKeys({ Limit: 5 } as never), 'Limit', 'did you mean limit?'],
  ])(
    '%s: a BaasValidationError naming it and the member meant, nothing sent, validate on or off',
    async (_what, call, name, hint) => {
      for (const validate of [true, false]) {
        const { client, fetchSpy } = clientWithSpy(validate);
        const error = (await call(client).catch((e: unknown) => e)) as BaasValidationError;
        expect(error).toBeInstanceOf(BaasValidationError);
        expect(error.issues[0]).toMatchObject({ path: name });
        expect(error.message).toContain(`"${name}"`);
        expect(error.message).toContain(hint);
        expect(fetchSpy).not.toHaveBeenCalled();
      }
    },
  );

  // A call option, not a contract parameter: an options mistake (BaasOptionError), as the client's own.
  it.each([
    ['TimeoutMs', 'timeoutMs'],
    ['timeout', 'timeoutMs'],
    ['header', 'headers'],
  ])('%s: a BaasOptionError naming it and the option meant (%s), nothing sent', async (given, meant) => {
    const { client, fetchSpy } = clientWithSpy();
    const error = await client.listPixKeys({ [given]: 1000 } as never).catch((e: unknown) => e);
    expect(isBaasOptionError(error)).toBe(true);
    expect(error).toMatchObject({
      where: 'listPixKeys',
      option: given,
      rule: `is not an option; did you mean ${meant}?`,
    });
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('leaves other members alone: a wider object spread into the input still works', async () => {
    const { client, fetchSpy } = clientWithSpy();
    const sandboxAccount = { accountId: 'c4aea91a', account: VALID_ACCOUNT, documentNumber: VALID_CPF };
    const options = {
      signal: new AbortController().signal,
      timeoutMs: 1000,
      retry: false,
      maxResponseBytes: 1e6,
      headers: {},
    } as const;
    await client.updateNaturalPerson({ ...sandboxAccount, body: fullUpdate(), ...options });
    fetchSpy.mockResolvedValueOnce(Response.json({ cursor: { next: null }, data: [] }));
    await client.listPixKeys({ limit: 5, cursor: 'c', ...options, ...({ note: 'extra' } as object) });
    expect(fetchSpy).toHaveBeenCalledTimes(2);
  });
});
