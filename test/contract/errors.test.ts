// Each documented error response of every operation (the shared list), selected with Prism's
// Prefer header, parses as Problem.
import { describe, expect, it } from 'vitest';
import { mockUrl, TEST_TOKEN, TEST_USER_AGENT } from '../support/mock.js';
import { schemaErrors } from '../support/ajv.js';
import { operationCases } from '../support/operations.js';
import { preferHeaders } from '../../src/testing/prefer.js';

const errorStatuses = (statuses: readonly number[]): number[] => statuses.filter((status) => status >= 400);

describe('documented errors', () => {
  it('cover 400, 401, 403, 422, 429, 500, 503 on every operation and 404 on the update', () => {
    const byOperation = Object.fromEntries(operationCases.map((c) => [c.id, errorStatuses(c.statuses)]));
    expect(byOperation).toEqual({
      updateNaturalPerson: [400, 401, 403, 404, 422, 429, 500, 503],
      listPixKeys: [400, 401, 403, 422, 429, 500, 503],
    });
  });

  const cases = operationCases.flatMap((operation) => errorStatuses(operation.statuses).map((status) => ({ operation, status, name: `${operation.id} ${status}` })));

  it.each(cases)('$name is a Problem', async ({ operation, status }) => {
    const url = new URL(mockUrl() + operation.path);
    for (const [name, value] of Object.entries(operation.query)) url.searchParams.set(name, value);
    const response = await fetch(url, {
      method: operation.method,
      headers: {
        Authorization: `Bearer ${TEST_TOKEN}`,
        'User-Agent': TEST_USER_AGENT,
        Accept: 'application/json, application/problem+json',
        ...(operation.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...preferHeaders({ code: status }),
      },
      ...(operation.body === undefined ? {} : { body: JSON.stringify(operation.body) }),
    });
    const problem = (await response.json()) as { status?: number };
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(schemaErrors('/components/schemas/Problem', problem)).toEqual([]);
    expect(problem.status).toBe(status);
    if (status === 429 || status === 503) expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(0);
  });
});
