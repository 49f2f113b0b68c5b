import { inject } from 'vitest';
import { createRawClient, type RawClientOptions } from '../../src/client/raw.js';

export const TEST_TOKEN = 'test-token-7f3a9c';
export const TEST_USER_AGENT = 'baas-pix-contract-tests/1.0';

export const mockUrl = (): string => inject('mockUrl');

/** A raw typed client pointed at the run's mock, with a token and a User-Agent unless overridden. */
export function mockClient(overrides: Partial<RawClientOptions> = {}) {
  return createRawClient({ baseUrl: mockUrl(), token: TEST_TOKEN, userAgent: TEST_USER_AGENT, ...overrides });
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
