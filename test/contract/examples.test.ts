// Every named example in the spec, served by the mock, comes back exactly as written.
import { describe, expect, it } from 'vitest';
import { deref, spec } from '../support/spec.js';
import { mockClient, sendToMock } from '../support/mock.js';
import { preferHeaders } from '../../src/testing/prefer.js';
import { operationCases } from '../support/operations.js';

const VALID_QUERY = { Account: '300541976902', DocumentNumber: '52998224725' };

type ExampleCase = { operationId: string; status: string; example: string; value: unknown };

function responseExamples(): ExampleCase[] {
  const cases: ExampleCase[] = [];
  for (const item of Object.values(spec.paths)) {
    for (const operation of Object.values(item)) {
      for (const [status, response] of Object.entries<any>(operation.responses)) {
        for (const media of Object.values<any>(deref(response).content ?? {})) {
          for (const [example, ref] of Object.entries(media.examples ?? {})) {
            cases.push({ operationId: operation.operationId, status, example, value: deref<any>(ref).value });
          }
        }
      }
    }
  }
  return cases;
}

const requestExamples = Object.entries<any>(
  spec.paths['/v2/api/baas-onboarding/account/natural-person']!.put.requestBody.content['application/json'].examples,
).map(([name, ref]) => ({ name, value: deref<any>(ref).value }));

describe('request examples', () => {
  it('covers each update example', () => expect(requestExamples.length).toBeGreaterThanOrEqual(3));

  it.each(requestExamples)('PUT with $name is accepted', async ({ value }) => {
    const { data, error, response } = await mockClient().PUT('/v2/api/baas-onboarding/account/natural-person', {
      params: { query: VALID_QUERY },
      body: value,
    });
    expect(response.headers.get('sl-violations')).toBeNull();
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data).toEqual({ version: '1.0.0', status: 'SUCCESS' });
  });
});

describe('response examples', () => {
  const cases = responseExamples();
  it('cover every operation of the shared list', () => {
    expect(new Set(cases.map((c) => c.operationId))).toEqual(new Set(operationCases.map((c) => c.id)));
    expect(cases.length).toBeGreaterThanOrEqual(19);
  });

  it.each(cases)('$operationId $status $example round-trips', async ({ operationId, status, example, value }) => {
    const operation = operationCases.find((c) => c.id === operationId)!;
    const response = await sendToMock(operation, preferHeaders({ code: Number(status), example }));
    expect(response.status).toBe(Number(status));
    expect(await response.json()).toEqual(value);
  });
});
