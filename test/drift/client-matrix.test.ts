// The client's `validateResponses`, case by case with verify on the drift matrix: with 'throw',
// each break is a BaasResponseError whose problems are the pointers verify flags; each control is
// answered as usual. With 'warn', the same calls go on as they would with 'off', and the drift
// goes to onDrift and the client's observer. 'off' flags nothing. Values never show.
import { describe, expect, it } from 'vitest';
import { createBaasClient, BaasResponseError, type BaasClientOptions } from '../../src/index.js';
import type { DriftEvent } from '../../src/drift/index.js';
import { startDriftServer, TOKEN } from '../support/drift-server.js';
import { BREAKS, CONTROLS, type DriftCase } from './cases.js';

const FIRST_CURSOR = 'eyJvZmZzZXQiOjJ9';

/** What a client call saw: its value or its error, and the drift events it emitted. */
interface Outcome {
  value?: unknown;
  error?: unknown;
  events: DriftEvent[];
}

/** Makes, with the client, the request of the run that shows the case (as verify does). */
async function call(c: DriftCase, options: Partial<BaasClientOptions>): Promise<Outcome> {
  const server = await startDriftServer(c.breakIt, '/gateway/baas');
  const events: DriftEvent[] = [];
  try {
    const client = createBaasClient({
      baseUrl: server.url,
      // The "no token" request: the client always sends one, so it sends one the service refuses.
      token: c.shownBy === 'no-token' ? 'refused-token-0123456789' : TOKEN,
      retry: false,
      // The out-of-range limit must reach the service, as verify's probe does.
      validate: c.shownBy !== 'bad-limit',
      onDrift: (event) => events.push(event),
      ...options,
    });
    let value: unknown;
    if (c.stateful)
      value = await (async () => {
        const keys = [];
        for await (const key of client.pixKeys({ limit: 50 })) keys.push(key);
        return keys;
      })();
    else if (c.shownBy === 2) value = await client.listPixKeys({ cursor: FIRST_CURSOR });
    else if (c.shownBy === 'bad-limit') value = await client.listPixKeys({ limit: 201 });
    else value = await client.listPixKeys({ limit: 50 });
    return { value, events };
  } catch (error) {
    return { error, events };
  } finally {
    await server.close();
  }
}

const pointers = (problems: readonly { part: string; pointer: string }[] | undefined) =>
  (problems ?? []).map((p) => ({ part: p.part, pointer: p.pointer }));

describe("validateResponses: 'throw' agrees with verify on the drift matrix", () => {
  for (const c of BREAKS) {
    it(`"${c.name}" is a BaasResponseError at ${c.expected.map((e) => `${e.part} ${e.pointer || '(whole)'}`).join(', ')}`, async () => {
      const { error } = await call(c, { validateResponses: 'throw' });
      expect(error).toBeInstanceOf(BaasResponseError);
      expect(pointers((error as BaasResponseError).problems)).toEqual(c.expected);
      for (const p of (error as BaasResponseError).problems!) expect(p.rule).toMatch(/^must |^is /);
      // Pointers and rules, never the values: no body snippet, no token.
      expect((error as BaasResponseError).bodySnippet).toBeUndefined();
      expect(JSON.stringify(error)).not.toContain(TOKEN);
      expect((error as Error).message).not.toMatch(/11987654321|home phone/);
    });
  }
  for (const c of CONTROLS) {
    it(`the control "${c.name}" is answered as usual`, async () => {
      const { value, error } = await call(c, { validateResponses: 'throw' });
      expect(error).toBeUndefined();
      expect((value as { data: unknown[] }).data.length).toBeGreaterThan(0);
    });
  }
  it('a conformant 401 and 422 stay ApiErrors (documented refusals are not drift)', async () => {
    for (const shownBy of ['no-token', 'bad-limit'] as const) {
      const { error } = await call(
        { name: 'conformant', breakIt: () => {}, expected: [], shownBy },
        { validateResponses: 'throw' },
      );
      expect((error as { kind?: string }).kind).toBe('api');
    }
  });
});

describe("validateResponses: 'warn' and 'off'", () => {
  for (const c of BREAKS.filter((b) => !b.stateful)) {
    it(`"${c.name}": 'warn' ends like 'off' and reports the same pointers as a drift event`, async () => {
      const off = await call(c, { validateResponses: 'off' });
      const warn = await call(c, { validateResponses: 'warn' });
      expect(off.events).toEqual([]);
      // The call itself: the same value, or an error of the same kind as without validation.
      expect(warn.value).toEqual(off.value);
      expect((warn.error as { kind?: string } | undefined)?.kind).toBe(
        (off.error as { kind?: string } | undefined)?.kind,
      );
      expect(warn.events).toHaveLength(1);
      expect(warn.events[0]).toMatchObject({ type: 'drift', operationId: 'listPixKeys', method: 'GET' });
      expect(pointers(warn.events[0]!.problems)).toEqual(c.expected);
      expect(JSON.stringify(warn.events)).not.toContain(TOKEN);
    });
  }

  it("'warn': a throwing onDrift does not fail the call", async () => {
    const server = await startDriftServer(BREAKS[0]!.breakIt);
    try {
      const client = createBaasClient({
        baseUrl: server.url,
        token: TOKEN,
        validateResponses: 'warn',
        onDrift: () => {
          throw new Error('listener bug');
        },
      });
      const page = await client.listPixKeys();
      expect(page.data.length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  it("'warn' goes to client.on('drift') and to the logger at warn level, with pointers and no values", async () => {
    const server = await startDriftServer(BREAKS[2]!.breakIt);
    const logged: { level: string; message: string; fields: unknown }[] = [];
    const at = (level: string) => (message: string, fields: object) => logged.push({ level, message, fields });
    try {
      const client = createBaasClient({
        baseUrl: server.url,
        token: TOKEN,
        validateResponses: 'warn',
        logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
      });
      const heard: DriftEvent[] = [];
      client.on('drift', (event) => heard.push(event));
      await client.listPixKeys();
      expect(heard).toHaveLength(1);
      expect(pointers(heard[0]!.problems)).toEqual(BREAKS[2]!.expected);
      const warned = logged.filter((l) => l.level === 'warn');
      expect(warned).toHaveLength(1);
      expect(warned[0]!.message).toMatch(/listPixKeys GET .* answered HTTP 200 off the contract: 1 problem/);
      expect(JSON.stringify(logged)).not.toMatch(/11987654321|verify-test-token/);
    } finally {
      await server.close();
    }
  });

  it('refuses an unknown mode at creation, naming the option', () => {
    expect(() =>
      createBaasClient({
        baseUrl: 'https://api.test',
        token: 'token-0123456789',
        validateResponses: 'strict' as never,
      }),
    ).toThrow(/validateResponses must be off, warn or throw/);
  });
});
