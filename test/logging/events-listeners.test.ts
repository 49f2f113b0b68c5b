// client.on() (src/client/events.ts): listeners given before the first call hear it, one removed
// before it is never called, one added between calls hears the next, and each stop function stops
// only its own listener.
import { describe, expect, it, vi } from 'vitest';
import { createBaasClient, type BaasEvent } from '../../src/index.js';

const page = { cursor: { next: null }, data: [] };
const client = () =>
  createBaasClient({
    baseUrl: 'https://api.example.test',
    token: 'events-listener-token',
    retry: false,
    fetch: async () => Response.json(page),
  });
const types = (events: BaasEvent[]) => events.map((e) => `${e.type} ${'attempt' in e ? e.attempt : ''}`.trim());

describe('client.on', () => {
  it('listeners of several types given before the first call all hear it', async () => {
    const c = client();
    const seen: BaasEvent[] = [];
    c.on('request', (e) => seen.push(e));
    c.on('response', (e) => seen.push(e));
    await c.listPixKeys();
    expect(types(seen)).toEqual(['request 1', 'response 1']);
  });

  it('a listener stopped before the first call is never called; the others are', async () => {
    const c = client();
    const stopped = vi.fn();
    const kept: BaasEvent[] = [];
    const stop = c.on('response', stopped);
    c.on('response', (e) => kept.push(e));
    stop();
    await c.listPixKeys();
    expect(stopped).not.toHaveBeenCalled();
    expect(types(kept)).toEqual(['response 1']);
  });

  it('a listener added after a call hears the next call, until it is stopped', async () => {
    const c = client();
    const first: BaasEvent[] = [];
    c.on('response', (e) => first.push(e));
    await c.listPixKeys();
    const later: BaasEvent[] = [];
    const stop = c.on('request', (e) => later.push(e));
    await c.listPixKeys();
    expect(types(later)).toEqual(['request 1']);
    stop();
    await c.listPixKeys();
    expect(types(later)).toEqual(['request 1']);
    expect(types(first)).toEqual(['response 1', 'response 1', 'response 1']);
  });

  it('stopping twice, or after the call, changes nothing for the other listeners', async () => {
    const c = client();
    const kept: BaasEvent[] = [];
    c.on('response', (e) => kept.push(e));
    const stop = c.on('response', () => undefined);
    await c.listPixKeys();
    stop();
    stop();
    await c.listPixKeys();
    expect(types(kept)).toEqual(['response 1', 'response 1']);
  });
});
