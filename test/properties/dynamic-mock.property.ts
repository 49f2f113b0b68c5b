// Every response the mock generates in dynamic mode, for every documented status of every
// operation (the shared list in test/support/operations.ts), conforms to the spec (status, media type, body schema, documented headers) and is
// read by the client: a 2xx as the very data sent, an error status as a BaasApiError carrying the
// status, the problem, the request id and Retry-After.
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BaasApiError, createBaasClient, type BaasClient } from '../../src/index.js';
import { preferHeaders } from '../../src/testing/prefer.js';
import { schemaErrors } from '../support/ajv.js';
import { SECRET_TOKEN, VALID_CPF } from '../support/fixtures.js';
import { operationCases } from '../support/operations.js';
import { deref, spec } from '../support/spec.js';
import type { Depth } from './depth.js';

// In the full run, 10 responses for each documented status (11 for the PUT, 8 for the GET): each
// status's generated bodies vary enough to meet every schema branch, and Prism's generation is most
// of this file's CPU (a flat 120 per operation gave the GET's statuses 15 each, 40 requests more than
// needed). The quick run asks for 2 of each.
const PER_STATUS = { full: 10, quick: 2 } as const satisfies Record<Depth, number>;
/** The seed of the full run's own dynamic mock (dynamic-mock.matrix.test.ts). */
export const SEED = 'baas-dynamic-20261122';

/** Where the responses come from, and whether each request asks for a generated one (`Prefer: dynamic=true`). */
export interface ResponseSource {
  url: string;
  preferDynamic: boolean;
  stop?(): Promise<void>;
}
let source: ResponseSource | undefined;

interface Seen {
  status: number;
  headers: Headers;
  body: string;
}

function clientPreferring(status: number, seen: Seen[]): BaasClient {
  return createBaasClient({
    baseUrl: source!.url,
    token: SECRET_TOKEN,
    retry: false,
    fetch: async (url, init) => {
      const response = await fetch(url, {
        ...init,
        headers: {
          ...(init.headers as Record<string, string>),
          ...preferHeaders(source!.preferDynamic ? { code: status, dynamic: true } : { code: status }),
        },
      });
      // A copy, so the test checks the very body the client read.
      seen.push({ status: response.status, headers: response.headers, body: await response.clone().text() });
      return response;
    },
  });
}

const escapePointer = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** The JSON pointer of a node in the bundle, following `$ref`s: where Ajv finds its schema. */
function pointerOf(pointer: string): string {
  let current = pointer;
  for (let hops = 0; hops < 10; hops += 1) {
    const node = current
      .split('/')
      .slice(1)
      .reduce<any>((acc, part) => acc?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
    if (typeof node?.$ref !== 'string') return current;
    current = (node.$ref as string).replace(/^#/, '');
  }
  throw new Error(`too many $refs from ${pointer}`);
}

/** What a documented header's text must be, checked with its schema (integers arrive as text). */
function headerErrors(headerPointer: string, name: string, value: string | null): string[] {
  const header = deref<{ required?: boolean; schema: { type?: string } }>({ $ref: `#${headerPointer}` });
  if (value === null) return header.required ? [`${name} is required but absent`] : [];
  const typed =
    header.schema.type === 'integer' || header.schema.type === 'number'
      ? /^-?[0-9]+(\.[0-9]+)?$/.test(value)
        ? Number(value)
        : value
      : value;
  return schemaErrors(`${headerPointer}/schema`, typed).map((e) => `${name}${e}`);
}

/**
 * The property, at `depth`, against the responses of `from()`. Quick (dynamic-mock.test.ts): npm test's
 * shared Prism, each request asking for a generated response (`Prefer: dynamic=true`); npm test starts
 * no Prism of a file's own, so these bodies are not the same on every run. Full
 * (dynamic-mock.matrix.test.ts): a dynamic mock of the file's own whose generator is seeded, so the
 * sequence of bodies repeats run after run. The file says which: this module starts no Prism, so the
 * quick file loads nothing that does (a file that starts one with startMock runs in a fork of its own,
 * scripts/lib/test-kinds.mjs).
 */
export function dynamicMockResponses(depth: Depth, from: () => ResponseSource | Promise<ResponseSource>): void {
  beforeAll(async () => {
    source = await from();
  });
  afterAll(() => source?.stop?.());

  describe.each(operationCases)('$id in dynamic mode', ({ path, method, call, statuses: documented }) => {
    const operationPointer = `/paths/${escapePointer(path)}/${method.toLowerCase()}`;
    const statuses = documented.map(String);

    const responses = PER_STATUS[depth] * statuses.length;
    it(`every response for the ${statuses.length} documented statuses conforms and parses (${responses} responses)`, async () => {
      const distinctBodies = new Set<string>();
      let withBody = 0;
      for (let i = 0; i < responses; i += 1) {
        const status = statuses[i % statuses.length]!;
        const seen: Seen[] = [];
        const outcome = await call(clientPreferring(Number(status), seen)).then(
          (data) => ({ data }),
          (error: unknown) => ({ error }),
        );
        expect(seen).toHaveLength(1);
        const response = seen[0]!;
        const where = `${status}, response ${i}: ${response.body.slice(0, 400)}`;

        // What the spec documents for this status.
        const responsePointer = pointerOf(`${operationPointer}/responses/${status}`);
        const documented = deref<{ content?: Record<string, unknown>; headers?: Record<string, unknown> }>({
          $ref: `#${responsePointer}`,
        });
        expect(response.status, where).toBe(Number(status));
        // A response documented without content (the update's 204) has no body, which the client reads as undefined.
        const [mediaType] = Object.keys(documented.content ?? {});
        let body: unknown;
        if (mediaType === undefined) expect(response.body, where).toBe('');
        else {
          withBody += 1;
          distinctBodies.add(response.body);
          expect(response.headers.get('content-type'), where).toContain(mediaType);
          body = JSON.parse(response.body) as unknown;
          const schemaPointer = pointerOf(`${responsePointer}/content/${escapePointer(mediaType)}/schema`);
          expect(schemaErrors(schemaPointer, body), where).toEqual([]);
        }
        for (const name of Object.keys(documented.headers ?? {})) {
          const headerPointer = pointerOf(`${responsePointer}/headers/${escapePointer(name)}`);
          expect(headerErrors(headerPointer, name, response.headers.get(name)), where).toEqual([]);
        }

        // What the client made of it.
        if (Number(status) < 300) {
          expect(outcome, where).toEqual({ data: body });
          continue;
        }
        const error = 'error' in outcome ? outcome.error : outcome;
        expect(error, where).toBeInstanceOf(BaasApiError);
        const apiError = error as BaasApiError;
        const problem = body as { status?: number; correlationId?: string };
        expect(apiError.status).toBe(Number(status));
        expect(apiError.problem, where).toBeTypeOf('object');
        if (problem.status !== undefined) expect(apiError.problem?.status).toBe(problem.status);
        expect(apiError.requestId).toBe(response.headers.get('x-request-id') ?? problem.correlationId);
        const retryAfter = response.headers.get('retry-after');
        expect(apiError.retryAfterMs).toBe(retryAfter === null ? undefined : Number(retryAfter) * 1000);
        for (const form of [apiError.message, JSON.stringify(apiError), inspect(apiError, { depth: 10 })]) {
          expect(form).not.toContain(SECRET_TOKEN);
          expect(form).not.toContain(VALID_CPF);
        }
      }
      // Generated, not one example served again and again: nearly every body is new.
      expect(distinctBodies.size).toBeGreaterThan(withBody * 0.9);
      expect(withBody).toBeGreaterThan(responses * 0.8);
    });
  });
}
