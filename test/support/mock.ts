import { inject } from 'vitest';
import { type BaasClientOptions, createBaasClient } from '../../src/index.js';
import type { OperationCase } from './operations.js';

export const TEST_TOKEN = 'test-token-7f3a9c';
export const TEST_USER_AGENT = 'baas-pix-contract-tests/1.0';

export const mockUrl = (): string => inject('mockUrl');

/**
 * The raw client (`createBaasClient(...).raw`, through the transport) pointed at the run's mock, with a
 * token and a User-Agent unless overridden; each request sent once, so a test sees the mock's answer.
 */
export function mockClient(overrides: Partial<BaasClientOptions> = {}) {
  return createBaasClient({
    baseUrl: mockUrl(),
    token: TEST_TOKEN,
    userAgent: TEST_USER_AGENT,
    retry: false,
    ...overrides,
  }).raw;
}

export interface SlViolation {
  location: string[];
  code: string | number;
  message: string;
}

/** Prism lists what it rejected in the `sl-violations` header. */
export function slViolations(response: Response): SlViolation[] {
  const header = response.headers.get('sl-violations');
  return header ? (JSON.parse(header) as SlViolation[]) : [];
}

/** The field a violation names: `body.address.state`, `query.documentnumber`, `header.user-agent`. */
export function violatedFields(response: Response): string[] {
  return slViolations(response).map((v) => {
    const [, where, ...rest] = v.location;
    const missing = /required property '([^']+)'/.exec(v.message)?.[1];
    return [where, ...rest, ...(missing ? [missing] : [])].join('.');
  });
}

/** The operation's valid request, straight to the run's mock (no client, no pre-flight), with extra headers. */
export function sendToMock(operation: OperationCase, headers: Record<string, string> = {}): Promise<Response> {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    encodeURIComponent(operation.pathParams?.[name] ?? ''),
  );
  const url = new URL(mockUrl() + path);
  for (const [name, value] of Object.entries(operation.query)) url.searchParams.set(name, value);
  return fetch(url, {
    method: operation.method,
    headers: {
      Authorization: `Bearer ${TEST_TOKEN}`,
      'User-Agent': TEST_USER_AGENT,
      Accept: 'application/json, application/problem+json',
      ...(operation.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    ...(operation.body === undefined ? {} : { body: JSON.stringify(operation.body) }),
  });
}
