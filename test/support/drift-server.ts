// A local list-keys service for the drift matrix: conformant by default (two pages from the spec's
// own examples, 401 and 422 as problem details), or with one contract break switched on. Listens
// on 127.0.0.1 on a free port; the caller always closes it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { readFileSync } from 'node:fs';

const spec = JSON.parse(readFileSync(new URL('../../src/generated/openapi.json', import.meta.url), 'utf8'));
const example = (name: string): any => structuredClone(spec.components.examples[name].value);
const LIST_PATH = Object.keys(spec.paths).find((p) => spec.paths[p].get?.operationId === 'listPixKeys')!;
export const TOKEN = 'verify-test-token-0123456789';

/** What the server does to an answer before sending it. */
export type Break = (answer: Answer, request: { page: 1 | 2 | 'no-token' | 'bad-limit' }) => void;

export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** JSON value, or a string sent as it is. */
  body: unknown;
}

export interface DriftServer {
  url: string;
  requests: number;
  close(): Promise<void>;
}

function answer(
  req: IncomingMessage,
  prefix: string,
): { answer: Answer; kind: 'no-token' | 'bad-limit' | 1 | 2 } | undefined {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname !== `${prefix}${LIST_PATH}`) return undefined;
  const problem = (status: number, name: string, extra: Record<string, string> = {}): Answer => ({
    status,
    headers: { 'content-type': 'application/problem+json', 'x-request-id': 'req-1', ...extra },
    body: example(name),
  });
  if (req.headers.authorization !== `Bearer ${TOKEN}`)
    return { answer: problem(401, 'MissingToken', { 'www-authenticate': 'Bearer' }), kind: 'no-token' };
  const limit = url.searchParams.get('limit');
  if (limit !== null && !(/^[0-9]+$/.test(limit) && Number(limit) >= 1 && Number(limit) <= 200))
    return { answer: problem(422, 'InvalidFields'), kind: 'bad-limit' };
  const first = example('FirstPage');
  const page = url.searchParams.get('cursor') === first.cursor.next ? 2 : 1;
  const body = page === 1 ? first : example('LastPage');
  return {
    answer: { status: 200, headers: { 'content-type': 'application/json', 'x-request-id': `req-${page}` }, body },
    kind: page,
  };
}

/** With `tls`, HTTPS that requires a client certificate issued by `tls.ca`. */
export function startDriftServer(
  breakIt: Break = () => {},
  prefix = '',
  tls?: { cert: string; key: string; ca: string },
): Promise<DriftServer> {
  const state = { requests: 0 };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    state.requests += 1;
    const found = answer(req, prefix);
    if (!found) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    breakIt(found.answer, { page: found.kind });
    const { status, headers, body } = found.answer;
    res.writeHead(status, headers).end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const server = tls
    ? createHttpsServer({ ...tls, requestCert: true, rejectUnauthorized: true }, handle)
    : createServer(handle);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({
        url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}${prefix}`,
        get requests() {
          return state.requests;
        },
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    }),
  );
}
