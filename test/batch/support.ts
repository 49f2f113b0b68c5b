// Helpers of the batch tests: a sandbox client, its customers as update items, and a fetch that
// holds each answer until the test lets it go, so the tests decide the order answers complete in.
import { createBaasClient, type BaasClient, type UpdateItem } from '../../src/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';

export const BASE_URL = 'https://sandbox.baas.example';

export function sandboxClient(options: Parameters<typeof createSandbox>[0] = {}): {
  sandbox: Sandbox;
  client: BaasClient;
  items: UpdateItem[];
  token: string;
} {
  const sandbox = createSandbox({ accountsPerClient: 40, keysPerAccount: 1, ...options });
  const seeded = sandbox.clients[0]!;
  const client = createBaasClient({ baseUrl: BASE_URL, token: seeded.token, fetch: sandbox.fetch });
  const items = seeded.accounts.map((account, index) => ({
    account: account.account,
    documentNumber: account.documentNumber,
    body: { email: `customer${index}@example.com` },
  }));
  return { sandbox, client, items, token: seeded.token };
}

export interface HeldRequest {
  url: URL;
  /** Answers with the sandbox's response, or with the given one. */
  release(response?: Response): void;
}

/** A fetch in front of `inner` that holds every request until `release`; counts those in flight. */
export function heldFetch(inner: (input: string, init?: RequestInit) => Promise<Response>) {
  const held: HeldRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let sent = 0;
  let arrived: (() => void) | undefined;
  const fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    sent += 1;
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    return new Promise<Response>((resolve, reject) => {
      // Like a real fetch, an abort rejects the request (and it is no longer in flight).
      init?.signal?.addEventListener('abort', () => {
        inFlight -= 1;
        reject(init.signal?.reason);
      });
      held.push({
        url: new URL(String(input)),
        release(response) {
          inFlight -= 1;
          if (response) resolve(response);
          else inner(String(input), init).then(resolve, reject);
        },
      });
      arrived?.();
    });
  };
  return {
    fetch,
    held,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    get sent() {
      return sent;
    },
    resetMax() {
      maxInFlight = inFlight;
    },
    /** Resolves when at least `count` requests are held. */
    async waitForHeld(count: number): Promise<void> {
      while (held.length < count) await new Promise<void>((resolve) => (arrived = resolve));
    },
  };
}

/** An answer of the provider: 429 or 503 with `Retry-After: 0`, or a success. */
export const overloaded = (status: 429 | 503, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ type: 'about:blank', title: 'slow down', status }), {
    status,
    headers: { 'content-type': 'application/problem+json', 'retry-after': '0', ...headers },
  });

export const success = (headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ version: '1.0.0', status: 'SUCCESS' }), {
    status: 200,
    headers: { 'content-type': 'application/json', ...headers },
  });

/** Lets pending promise callbacks run (the batch's pump is a few hops of microtasks and a macrotask away). */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Lets callbacks run until `condition` holds: a bounded number of event-loop turns (no clock), so a
 * batch that never gets there fails the test instead of hanging it.
 */
export async function until(condition: () => boolean, turns = 10_000): Promise<void> {
  for (let turn = 0; turn < turns; turn += 1) {
    if (condition()) return;
    await settle();
  }
  throw new Error(`the condition did not hold after ${turns} turns of the event loop`);
}

/** `count` valid update items (the sandbox's customers, repeated as needed). */
export const manyItems = (items: readonly UpdateItem[], count: number): UpdateItem[] =>
  Array.from({ length: count }, (_, i) => items[i % items.length]!);
