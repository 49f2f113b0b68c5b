// validateResponses as the client entry handles it (answerCheck of src/drift/answer.ts), with an injected
// fetch answering a key list that breaks the contract: 'off' (and no option) reads it as always,
// 'warn' reads it and reports the drift, 'throw' makes it a BaasResponseError; any other mode is refused
// when the client is made.
import { describe, expect, it } from 'vitest';
import { createBaasClient, BaasResponseError, type BaasClientOptions, type DriftEvent } from '../../src/index.js';

// `data[0]` is not a PIX key: it lacks every required member.
const drifting = { cursor: { next: null }, data: [{ id: 'k1' }] };

function client(options: Partial<BaasClientOptions>) {
  const drift: DriftEvent[] = [];
  const c = createBaasClient({
    baseUrl: 'https://api.example.test',
    token: 'check-mode-token',
    retry: false,
    fetch: async () => Response.json(drifting),
    onDrift: (event) => drift.push(event),
    ...options,
  });
  return { c, drift };
}

describe('validateResponses', () => {
  it.each([['off' as const], [undefined]])('%s: the answer is read as always, nothing reported', async (mode) => {
    const { c, drift } = client(mode ? { validateResponses: mode } : {});
    await expect(c.listPixKeys()).resolves.toStrictEqual(drifting);
    expect(drift).toEqual([]);
  });

  it("'warn': the answer is read as always, and the drift reported, every time", async () => {
    const { c, drift } = client({ validateResponses: 'warn' });
    await expect(c.listPixKeys()).resolves.toStrictEqual(drifting);
    await expect(c.listPixKeys()).resolves.toStrictEqual(drifting);
    expect(drift).toHaveLength(2);
    expect(drift[0]).toMatchObject({ type: 'drift', operationId: 'listPixKeys', status: 200, method: 'GET' });
    expect(drift[0]!.problems.map((p) => `${p.part} ${p.pointer}`)).toContain('body /data/0/key');
  });

  it("'throw': a BaasResponseError listing where the answer left the contract", async () => {
    const { c, drift } = client({ validateResponses: 'throw' });
    const error = (await c.listPixKeys().catch((e: unknown) => e)) as BaasResponseError;
    expect(error).toBeInstanceOf(BaasResponseError);
    expect(error.status).toBe(200);
    expect(error.problems?.map((p) => `${p.part} ${p.pointer}`)).toContain('body /data/0/key');
    expect(drift).toEqual([]);
  });

  it("'throw': the update's documented 204 is no drift and resolves undefined; an undocumented 202 is", async () => {
    const update = (status: number) =>
      createBaasClient({
        baseUrl: 'https://api.example.test',
        token: 'check-mode-token',
        retry: false,
        validateResponses: 'throw',
        fetch: async () => new Response(null, { status }),
      }).updateNaturalPerson({ account: '1234', documentNumber: '52998224725', body: { socialName: 'Bia' } });
    await expect(update(204)).resolves.toBeUndefined();
    const undocumented = (await update(202).catch((e: unknown) => e)) as BaasResponseError;
    expect(undocumented).toBeInstanceOf(BaasResponseError);
    expect(undocumented.problems?.map((p) => p.part)).toEqual(['status']);
  });

  it.each(['strict', 'on', true])('refuses %j at creation, naming the option and its values', (mode) => {
    expect(() => client({ validateResponses: mode as never })).toThrow(
      new TypeError('createBaasClient: validateResponses must be off, warn or throw'),
    );
  });
});
