// The request log in front of a tiny server of our own: one line per request with method, path and
// status; for a 422 the fields at fault; never a query value, a token or a CPF; the response passes
// through untouched.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultyFields, startRequestLog, type RequestLog } from '../../src/cli/request-log.js';
import { redactPath } from '../../src/redact.js';
import { until } from './in-process.js';

const TOKEN = 'tok-SECRET-abcdef123456';
const CPF = '52998224725';
let backend: Server;
let front: RequestLog;
const lines: string[] = [];

beforeAll(async () => {
  backend = createServer((req, res) => {
    let body = '';
    req
      .on('data', (c) => (body += c))
      .on('end', () => {
        if (req.url?.startsWith('/problem')) {
          res.writeHead(422, { 'content-type': 'application/problem+json' });
          res.end(
            JSON.stringify({
              status: 422,
              violations: [
                { property: '/address/state', reason: 'r' },
                { property: 'DocumentNumber', reason: 'r' },
              ],
            }),
          );
        } else if (req.url?.startsWith('/prism')) {
          const violations = [
            { location: ['request', 'body', 'email'], severity: 'Error', message: 'must match format "email"' },
            {
              location: ['request', 'body', 'address'],
              severity: 'Error',
              message: "must have required property 'city'",
            },
            { location: ['request', 'query', 'documentNumber'], severity: 'Error', message: 'must match pattern' },
          ];
          res.writeHead(422, { 'sl-violations': JSON.stringify(violations), 'content-type': 'application/json' });
          res.end('{}');
        } else {
          res.writeHead(200, { 'content-type': 'application/json', 'x-echo': req.headers.authorization ?? '' });
          res.end(JSON.stringify({ method: req.method, url: req.url, body }));
        }
      });
  });
  await new Promise<void>((r) => backend.listen(0, '127.0.0.1', r));
  front = await startRequestLog({
    target: `http://127.0.0.1:${(backend.address() as AddressInfo).port}`,
    host: '127.0.0.1',
    port: 0,
    log: (l) => lines.push(l),
  });
});
afterAll(async () => {
  await front?.stop();
  await new Promise((r) => backend?.close(r));
});

// The line is written once the answer has ended, which may be just after the client has it.
const settle = () => until(() => lines.length > 0);

describe('the request log', () => {
  it('forwards method, path, query, headers and body, and logs METHOD PATH STATUS without the query', async () => {
    lines.length = 0;
    const response = await fetch(`${front.url}/v2/api/x?documentNumber=${CPF}&account=1`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: '{"a":1}',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-echo')).toBe(`Bearer ${TOKEN}`);
    expect(await response.json()).toEqual({
      method: 'PUT',
      url: `/v2/api/x?documentNumber=${CPF}&account=1`,
      body: '{"a":1}',
    });
    await settle();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^PUT \/v2\/api\/x HTTP 200 in \d+ ms$/);
  });

  it("names the fields of a 422 from Prism's sl-violations (missing properties by name), once each", async () => {
    lines.length = 0;
    expect(
      (await fetch(`${front.url}/prism?documentNumber=${CPF}`, { headers: { authorization: `Bearer ${TOKEN}` } }))
        .status,
    ).toBe(422);
    await settle();
    expect(lines).toEqual([
      expect.stringMatching(/^GET \/prism HTTP 422 in \d+ ms, fields: \/email, \/address\/city, DocumentNumber$/),
    ]);
  });

  it("names the fields of a 422 from the problem body's violations (the sandbox's answer)", async () => {
    lines.length = 0;
    expect((await fetch(`${front.url}/problem`, { method: 'POST', body: `{"documentNumber":"${CPF}"}` })).status).toBe(
      422,
    );
    await settle();
    expect(lines).toEqual([
      expect.stringMatching(/^POST \/problem HTTP 422 in \d+ ms, fields: \/address\/state, DocumentNumber$/),
    ]);
  });

  it('never logs a token or a CPF, whatever the request carried', async () => {
    const all = lines.join('\n') + redactPath(`/customers/${CPF}?token=${TOKEN}`);
    expect(all).not.toContain(TOKEN);
    expect(all).not.toContain(CPF);
    expect(redactPath(`/customers/${CPF}`)).toBe('/customers/***********');
  });

  it('answers 502 and logs it when the server behind is gone', async () => {
    const dead = await startRequestLog({
      target: 'http://127.0.0.1:1',
      host: '127.0.0.1',
      port: 0,
      log: (l) => lines.push(l),
    });
    lines.length = 0;
    try {
      const response = await fetch(`${dead.url}/v2/api/pix/keys/list-keys`);
      expect(response.status).toBe(502);
      expect(response.headers.get('content-type')).toBe('text/plain');
      expect(await response.text()).toBe('Bad gateway: the server behind the request log did not answer.\n');
    } finally {
      await dead.stop();
    }
    expect(lines).toEqual([
      expect.stringMatching(
        /^GET \/v2\/api\/pix\/keys\/list-keys HTTP 502 \(server behind unreachable: ECONNREFUSED\)$/,
      ),
    ]);
  });

  it('faultyFields reads nothing it cannot parse', () => {
    expect(faultyFields({ 'sl-violations': 'not json' }, 'not json either')).toEqual([]);
  });
});
