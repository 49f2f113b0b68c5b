// The one list of operations the reliability and contract suites read (contract, fault matrix,
// never-hangs, dynamic mock, agreement): for each operationId of the generated table, a valid call
// and what the documented behaviour makes of the answers that differ between operations. Adding an
// operation to the spec makes `tsc` fail here until it has its entry. It reads no mock: what sends an
// operation's request to the run's Prism is test/support/mock.ts's (sendToMock), so that the files that
// only call servers of their own (the fault matrix, never-hangs) do not run in the `prism` project.
import { operationStatuses, operations, type OperationName as SpecOperation } from '../../src/generated/operations.js';
import type { BaasClient, CallOptions } from '../../src/index.js';
import { VALID_ACCOUNT, VALID_CPF, fullUpdate } from './fixtures.js';

export interface OperationCase {
  id: SpecOperation;
  method: string;
  path: string;
  /** Documented statuses, from the spec. */
  statuses: readonly number[];
  /** A valid call through the typed client. */
  call(client: BaasClient, options?: CallOptions): Promise<unknown>;
  /** What a typed call makes of a 2xx whose body is empty or a JSON object of another shape. */
  success: 'any-object-or-empty' | 'page';
  /** A valid query and body, as sent on the wire (for tests that go to the mock without the client). */
  query: Record<string, string>;
  /** Values of the path's `{parameters}`, when it has any. */
  pathParams?: Record<string, string>;
  body?: unknown;
}

const table = <K extends SpecOperation>(id: K) => ({
  id,
  method: operations[id].method,
  path: operations[id].path,
  statuses: operationStatuses[id],
});

export const OPERATIONS = {
  updateNaturalPerson: {
    ...table('updateNaturalPerson'),
    call: (client, options = {}) =>
      client.updateNaturalPerson({ account: VALID_ACCOUNT, documentNumber: VALID_CPF, body: fullUpdate(), ...options }),
    success: 'any-object-or-empty',
    query: { Account: VALID_ACCOUNT, DocumentNumber: VALID_CPF },
    body: fullUpdate(),
  },
  listPixKeys: {
    ...table('listPixKeys'),
    call: (client, options = {}) => client.listPixKeys({ limit: 20, ...options }),
    success: 'page',
    query: { limit: '20' },
  },
} as const satisfies { [K in SpecOperation]: OperationCase & { id: K } };

export const operationCases: OperationCase[] = Object.values(OPERATIONS);

/**
 * `client.raw` as one more way to call: a GET of the key list through openapi-fetch. It resolves
 * with what openapi-fetch makes of any answer, so only its network and timeout outcomes, its
 * bounds and its secrets are compared with the typed operations'.
 */
export const rawCall = (client: BaasClient, options: { signal?: AbortSignal } = {}) =>
  client.raw.GET('/v2/api/pix/keys/list-keys', { params: { header: { 'User-Agent': 'raw-tests/1.0' } }, ...options });

/** Operation names of the reliability suites: every operation of the spec, and `raw`. */
export type CallName = SpecOperation | 'raw';
export const callNames: CallName[] = [...operationCases.map((c) => c.id), 'raw'];

export function callBy(name: CallName, client: BaasClient): Promise<unknown> {
  return name === 'raw' ? rawCall(client) : OPERATIONS[name].call(client);
}
