// Every answer of the sandbox is built here: JSON bodies, problem details (RFC 9457) in the
// contract's shape, and the headers each documented status carries.
import { redactJson } from '../redact.js';
import type { Problem, Violation } from '../types.js';

export const PROBLEM_BASE = 'https://sandbox.baas.example/problems/';

export interface ProblemInput {
  status: number;
  slug: string;
  title: string;
  detail: string;
  violations?: Violation[];
  headers?: Record<string, string>;
}

export function json(status: number, body: unknown, requestId: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...headers },
  });
}

/**
 * A problem answer. Its violations are masked (src/redact.ts): a violation names the member at fault
 * as the client named it, and a member may be named by a CPF. Titles and details are the sandbox's
 * own words.
 */
export function problem(input: ProblemInput, requestId: string): Response {
  const body: Problem = {
    type: `${PROBLEM_BASE}${input.slug}`,
    title: input.title,
    status: input.status,
    detail: input.detail,
    instance: `/problems/occurrences/${requestId}`,
    correlationId: requestId,
    ...(input.violations ? { violations: redactJson(input.violations) } : {}),
  };
  return new Response(JSON.stringify(body), {
    status: input.status,
    headers: {
      'content-type': 'application/problem+json',
      'x-request-id': requestId,
      ...statusHeaders(input.status),
      ...input.headers,
    },
  });
}

/** The `Retry-After` of a 429 or 503 the sandbox serves without a wait of its own (`Prefer`, a fault), in seconds. */
export const DEFAULT_RETRY_AFTER_SECONDS = 30;

/** Headers the contract requires with a status, whoever builds the body (the sandbox, `Prefer` or a fault). */
export function statusHeaders(status: number): Record<string, string> {
  if (status === 401) return { 'www-authenticate': 'Bearer' };
  if (status === 429 || status === 503) return { 'retry-after': String(DEFAULT_RETRY_AFTER_SECONDS) };
  return {};
}

/**
 * A 401. Without a token the challenge is `Bearer` alone; for a token sent but refused (unknown,
 * expired) it carries RFC 6750's `error="invalid_token"` (§3.1), so a client can tell "send a token"
 * from "get a new one" without reading the body.
 */
export const unauthorized = (detail: string, requestId: string, refusedToken = false) =>
  problem(
    {
      status: 401,
      slug: 'unauthorized',
      title: 'Unauthorized',
      detail,
      ...(refusedToken ? { headers: { 'www-authenticate': invalidTokenChallenge(detail) } } : {}),
    },
    requestId,
  );

/** `Bearer error="invalid_token", error_description="…"`: the description is the sandbox's own words, quoted as RFC 6750 allows (no `"` or `\\`). */
export const invalidTokenChallenge = (description: string): string =>
  `Bearer error="invalid_token", error_description="${description.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '')}"`;

export const badRequest = (detail: string, requestId: string) =>
  problem({ status: 400, slug: 'bad-request', title: 'Malformed request', detail }, requestId);

export function invalid(violations: Violation[], requestId: string): Response {
  const fields = violations.length === 1 ? '1 field broke' : `${violations.length} fields broke`;
  return problem(
    {
      status: 422,
      slug: 'validation',
      title: 'Invalid request',
      detail: `${fields} a rule of the contract.`,
      violations,
    },
    requestId,
  );
}
