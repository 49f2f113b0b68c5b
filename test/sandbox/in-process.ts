// Calling a sandbox in process, as a test of its answers does: no socket, just its fetch handler.
import type { Sandbox } from '../../src/sandbox/index.js';

export const LIST = 'http://s/v2/api/pix/keys/list-keys';
export const UPDATE = 'http://s/v2/api/baas-onboarding/account/natural-person';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** The body as text, with this answer's request id replaced by `ID`. */
  text: string;
  body: any;
}

/** Status, headers and body of an answer; the request id (new each time) is checked, then written `ID`. */
export async function answerOf(response: Response): Promise<Answer> {
  const id = response.headers.get('x-request-id') ?? '';
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id))
    throw new Error(`x-request-id is not a UUID: ${id}`);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value === id ? 'ID' : value;
  });
  const text = (await response.text()).replaceAll(id, 'ID');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers, text, body };
}

/** The problem body the sandbox writes for `slug`, with the request id written `ID`. */
export const problemBody = (
  status: number,
  slug: string,
  title: string,
  detail: string,
  violations?: { property: string; reason: string }[],
) => ({
  type: `https://sandbox.baas.example/problems/${slug}`,
  title,
  status,
  detail,
  instance: '/problems/occurrences/ID',
  correlationId: 'ID',
  ...(violations ? { violations } : {}),
});

/** A list request of client `client` (default the first), with a User-Agent. */
export function list(
  sandbox: Sandbox,
  query = '',
  headers: Record<string, string> = {},
  client = 0,
): Promise<Response> {
  return sandbox.fetch(`${LIST}${query}`, {
    headers: { authorization: `Bearer ${sandbox.clients[client]!.token}`, 'user-agent': 'test/1', ...headers },
  });
}

/** An update of account `account` of client `client`, as the given client (default the same). */
export function update(
  sandbox: Sandbox,
  body: unknown,
  options: { client?: number; account?: number; as?: number; headers?: Record<string, string> } = {},
): Promise<Response> {
  const target = sandbox.clients[options.client ?? 0]!.accounts[options.account ?? 0]!;
  const url = `${UPDATE}?Account=${target.account}&DocumentNumber=${target.documentNumber}`;
  const token = sandbox.clients[options.as ?? options.client ?? 0]!.token;
  return sandbox.fetch(
    new Request(url, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...options.headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}
