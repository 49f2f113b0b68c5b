// Each documented error response of every operation (the shared list), selected with Prism's
// Prefer header, parses as Problem.
import { describe, expect, it } from 'vitest';
import { schemaErrors } from '../support/ajv.js';
import { sendToMock } from '../support/mock.js';
import { OPERATIONS, operationCases } from '../support/operations.js';
import { preferHeaders } from '../../src/testing/prefer.js';

const errorStatuses = (statuses: readonly number[]): number[] => statuses.filter((status) => status >= 400);

describe('documented errors', () => {
  it('cover 400, 401, 403, 422, 429, 500, 503 on every operation, and 404 and 413 (a body too large) on the update', () => {
    for (const operation of operationCases)
      expect(errorStatuses(operation.statuses), operation.id).toEqual(
        expect.arrayContaining([400, 401, 403, 422, 429, 500, 503]),
      );
    expect(errorStatuses(OPERATIONS.updateNaturalPerson.statuses)).toEqual(expect.arrayContaining([404, 413]));
  });

  const cases = operationCases.flatMap((operation) =>
    errorStatuses(operation.statuses).map((status) => ({ operation, status, name: `${operation.id} ${status}` })),
  );

  it.each(cases)('$name is a Problem', async ({ operation, status }) => {
    const response = await sendToMock(operation, preferHeaders({ code: status }));
    const problem = (await response.json()) as { status?: number };
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(schemaErrors('/components/schemas/Problem', problem)).toEqual([]);
    expect(problem.status).toBe(status);
    if (status === 429 || status === 503) expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(0);
  });
});
