// updateNaturalPerson: the calling client's customer, found by Account and DocumentNumber, gets the
// body's fields, once the query and the body are checked. A refused update changes nothing.
import type { NaturalPersonUpdate, UpdateResult } from '../types.js';
import { validateNaturalPersonUpdate, validateUpdateNaturalPersonQuery } from '../validation/index.js';
import type { Customers } from './customers.js';
import { badRequest, invalid, json, problem } from './problems.js';
import { readJsonBody, type SandboxRequest } from './request.js';
import { DOCUMENTED } from './spec.js';
import { repeated, violationsOf } from './violations.js';

const UPDATED: UpdateResult = DOCUMENTED.updateNaturalPerson.get(200)!.examples.values().next().value as UpdateResult;

export async function updateNaturalPerson(
  customers: Customers,
  request: SandboxRequest,
  url: URL,
  clientIndex: number,
  requestId: string,
): Promise<Response> {
  const query: Record<string, unknown> = {};
  for (const name of ['Account', 'DocumentNumber']) {
    const value = url.searchParams.get(name);
    if (value !== null) query[name] = value;
  }
  const body = await readJsonBody(request);
  if (!body.ok) {
    return body.tooLarge
      ? problem({ status: 413, slug: 'content-too-large', title: 'Content too large', detail: body.reason }, requestId)
      : badRequest(body.reason, requestId);
  }
  const issues = [
    ...repeated(url, 'updateNaturalPerson'),
    ...validateUpdateNaturalPersonQuery(query),
    ...validateNaturalPersonUpdate(body.value),
  ];
  if (issues.length > 0) return invalid(violationsOf(issues), requestId);
  const account = customers.find(query.Account as string, query.DocumentNumber as string);
  if (!account) {
    return problem(
      {
        status: 404,
        slug: 'not-found',
        title: 'Customer not found',
        detail: 'No customer account matches the given Account and DocumentNumber.',
      },
      requestId,
    );
  }
  if (account.clientIndex !== clientIndex) {
    return problem(
      {
        status: 403,
        slug: 'forbidden',
        title: 'Forbidden',
        detail: 'This token may not act on the requested account.',
      },
      requestId,
    );
  }
  customers.update(account, body.value as NaturalPersonUpdate);
  return json(200, UPDATED, requestId);
}
