// Each documented error response, selected with Prism's Prefer header, parses as Problem.
import { describe, expect, it } from 'vitest';
import { TEST_USER_AGENT, mockClient } from '../support/mock.js';
import { schemaErrors } from '../support/ajv.js';
import { spec } from '../support/spec.js';
import { preferHeaders } from '../../src/testing/prefer.js';

const errorStatuses = (path: string, method: string): number[] =>
  Object.keys(spec.paths[path]![method].responses)
    .map(Number)
    .filter((status) => status >= 400);

const UPDATE = '/v2/api/baas-onboarding/account/natural-person';
const LIST = '/v2/api/pix/keys/list-keys';

describe('documented errors', () => {
  it('cover 400, 401, 403, 422, 429, 500, 503 on both operations and 404 on the update', () => {
    expect(errorStatuses(UPDATE, 'put')).toEqual([400, 401, 403, 404, 422, 429, 500, 503]);
    expect(errorStatuses(LIST, 'get')).toEqual([400, 401, 403, 422, 429, 500, 503]);
  });

  it.each(errorStatuses(UPDATE, 'put'))('updateNaturalPerson %i is a Problem', async (status) => {
    const { error, response } = await mockClient().PUT(UPDATE, {
      params: { query: { Account: '300541976902', DocumentNumber: '52998224725' } },
      body: { email: 'maria.silva@email.com.br' },
      headers: preferHeaders({ code: status }),
    });
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(schemaErrors('/components/schemas/Problem', error)).toEqual([]);
    expect(error?.status).toBe(status);
  });

  it.each(errorStatuses(LIST, 'get'))('listPixKeys %i is a Problem', async (status) => {
    const { error, response } = await mockClient().GET(LIST, {
      params: { header: { 'User-Agent': TEST_USER_AGENT } },
      headers: preferHeaders({ code: status }),
    });
    expect(response.status).toBe(status);
    expect(schemaErrors('/components/schemas/Problem', error)).toEqual([]);
    expect(error?.status).toBe(status);
    if (status === 429 || status === 503) expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(0);
  });
});
