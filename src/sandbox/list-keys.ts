// listPixKeys: a page of the calling client's PIX keys, after its query, cursor and User-Agent are checked.
import { issueAt, validateListPixKeysQuery, type ValidationIssue } from '../validation/index.js';
import { BytesResponse } from './bytes-response.js';
import type { KeyPages } from './key-pages.js';
import { invalid, problem } from './problems.js';
import type { SandboxRequest } from './request.js';
import { LIMIT_DEFAULT, USER_AGENT } from './spec.js';
import { repeated, violationsOf } from './violations.js';

export async function listPixKeys(
  pages: KeyPages,
  request: SandboxRequest,
  url: URL,
  clientIndex: number,
  requestId: string,
  inProcess: boolean,
): Promise<Response> {
  const query: Record<string, unknown> = {};
  const limitText = url.searchParams.get('limit');
  if (limitText !== null) query.limit = /^-?[0-9]{1,16}$/.test(limitText) ? Number(limitText) : limitText;
  const cursor = url.searchParams.get('cursor');
  if (cursor !== null) query.cursor = cursor;
  const issues = [...repeated(url, 'listPixKeys'), ...validateListPixKeysQuery(query)];
  const userAgentIssue = userAgentRule(request.headers.get('user-agent'));
  if (userAgentIssue) issues.push(userAgentIssue);
  if (issues.length > 0) return invalid(violationsOf(issues), requestId);
  let offset = 0;
  if (cursor !== null) {
    // A cursor that decodes was issued by a sandbox with these very options, for a position short of the end.
    const decoded = pages.offsetOf(clientIndex, cursor);
    if (decoded === undefined) {
      return problem(
        {
          status: 400,
          slug: 'bad-cursor',
          title: 'Malformed request',
          detail: 'The cursor was not issued to this client by this server; start again without a cursor.',
        },
        requestId,
      );
    }
    offset = decoded;
  }
  // Validated: an integer from 1 to the contract's maximum.
  const limit = (query.limit as number | undefined) ?? LIMIT_DEFAULT;
  const body = pages.page(clientIndex, offset, limit);
  const init = { status: 200, headers: { 'content-type': 'application/json', 'x-request-id': requestId } };
  // Over HTTP, the adapter writes a plain Response's bytes straight to the socket; in process, a
  // BytesResponse spares the caller the stream that Node's Response reads every body through.
  // Stryker disable next-line ConditionalExpression: either Response answers the same (pages.test.ts), only faster where it is used.
  return inProcess ? new BytesResponse(body, init) : new Response(body, init);
}

/** The rule of the contract a `User-Agent` breaks, in words (never its value), or undefined when it keeps them all. */
function userAgentRule(value: string | null): ValidationIssue | undefined {
  const { name, maxLength, pattern } = USER_AGENT;
  if (!value) return issueAt(name, 'is required: the name of the calling application');
  if (value.length > maxLength) return issueAt(name, `must be at most ${maxLength} characters`);
  if (!pattern.test(value))
    return issueAt(
      name,
      'must be printable ASCII: no tab, other control character or character outside ASCII, and no space first',
    );
  return undefined;
}
