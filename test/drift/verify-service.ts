// An in-process list-keys service for verify's tests, given to verify as its fetch: conformant by
// default (two pages from the spec's examples, 401 without a token, 422 for limit=201, 200 for the
// update), each answer replaceable per test. Records every request it saw.
import { exampleValue } from '../support/fixtures.js';

export const SERVICE_TOKEN = 'svc-token-never-printed-4242';

export interface SeenRequest {
  method: string;
  url: URL;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string | undefined;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** JSON value, or a string sent as it is. */
  body?: unknown;
}

export type Kind = 'page1' | 'page2' | 'no-token' | 'bad-limit' | 'update' | 'other';

const LIST_PATH = '/v2/api/pix/keys/list-keys';
const UPDATE_PATH = '/v2/api/baas-onboarding/account/natural-person';

export const problemReply = (status: number, name: string, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: {
    'content-type': 'application/problem+json',
    'x-request-id': `req-${status}`,
    // The contract requires the challenge on every 401 (RFC 9110 §15.5.2).
    ...(status === 401 ? { 'www-authenticate': 'Bearer error="invalid_token"' } : {}),
    ...headers,
  },
  body: exampleValue(name),
});

/** What a conformant service answers. */
export function conformant(kind: Kind): Reply {
  switch (kind) {
    case 'page1':
      return {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-request-id': 'req-p1' },
        body: exampleValue('FirstPage'),
      };
    case 'page2':
      return {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-request-id': 'req-p2' },
        body: exampleValue('LastPage'),
      };
    case 'no-token':
      return problemReply(401, 'MissingToken', { 'www-authenticate': 'Bearer' });
    case 'bad-limit':
      return problemReply(422, 'InvalidFields');
    case 'update':
      return {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-request-id': 'req-u' },
        body: exampleValue('UpdateSucceeded'),
      };
    default:
      return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' };
  }
}

export function kindOf(request: SeenRequest, token = SERVICE_TOKEN): Kind {
  const { pathname, searchParams } = request.url;
  if (pathname.endsWith(UPDATE_PATH) && request.method === 'PUT') return 'update';
  if (!pathname.endsWith(LIST_PATH)) return 'other';
  if (request.headers.authorization !== `Bearer ${token}`) return 'no-token';
  if (searchParams.get('limit') === '201') return 'bad-limit';
  const first = exampleValue<{ cursor: { next: string } }>('FirstPage');
  return searchParams.get('cursor') === first.cursor.next ? 'page2' : 'page1';
}

function headersOf(init: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init).forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

/** A fetch that answers like the service: `reply` may change any answer (return undefined to keep it). */
export function fakeService(
  reply: (kind: Kind, request: SeenRequest, index: number) => Reply | undefined = () => undefined,
) {
  const requests: SeenRequest[] = [];
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const request: SeenRequest = {
      method: init.method ?? 'GET',
      url: new URL(url),
      headers: headersOf(init.headers),
      body: typeof init.body === 'string' ? init.body : undefined,
    };
    requests.push(request);
    const kind = kindOf(request);
    const { status, headers = {}, body } = reply(kind, request, requests.length - 1) ?? conformant(kind);
    const text = body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body);
    return new Response(text, { status, headers });
  };
  return { fetch, requests };
}
