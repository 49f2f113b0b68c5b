// client.on refuses an event type no event has (a listener that would never fire), naming the one meant.
import { describe, expect, it } from 'vitest';
import { createBaasClient } from '../../src/index.js';

const client = () =>
  createBaasClient({
    baseUrl: 'https://provider.test',
    token: 'tok',
    fetch: async () =>
      new Response('{"cursor":{"next":null},"data":[]}', { headers: { 'content-type': 'application/json' } }),
  });

describe('client.on', () => {
  it.each([
    ['reqest', 'request'],
    ['Response', 'response'],
    ['retyr', 'retry'],
    ['errors', 'error'],
  ])("refuses '%s', naming '%s'", (given, meant) => {
    expect(() => client().on(given as 'request', () => undefined)).toThrow(
      new TypeError(
        `client.on: "${given}" is not an event type; did you mean '${meant}'? The types are request, response, retry, error, token, drift.`,
      ),
    );
  });

  it('refuses a type far from any, a type that is not a string, and a listener that is not a function', () => {
    expect(() => client().on('somethingelse' as 'request', () => undefined)).toThrow(
      /^client\.on: "somethingelse" is not an event type\. The types are request/,
    );
    expect(() => client().on(42 as unknown as 'request', () => undefined)).toThrow(/number is not an event type/);
    expect(() => client().on('request', 'nope' as never)).toThrow(/listener must be a function/);
  });

  it('every documented type is taken, and its listener hears its events', async () => {
    const c = client();
    const heard: string[] = [];
    for (const type of ['request', 'response', 'retry', 'error', 'token', 'drift'] as const)
      c.on(type, (event) => heard.push(event.type));
    await c.listPixKeys();
    expect(heard).toEqual(['request', 'response']);
  });
});
