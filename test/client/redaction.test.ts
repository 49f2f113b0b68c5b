// The bearer token and the CPF never appear in any form of an error.
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBaasClient, type BaasError } from '../../src/index.js';
import type { NaturalPersonUpdate } from '../../src/types.js';
import { json, startFaultServer, type FaultServer } from '../support/fault-server.js';
import { SECRET_TOKEN, VALID_ACCOUNT, VALID_CPF, fullUpdate } from '../support/fixtures.js';

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());

// Answers come at once: a timeout no load reaches, so only the BaasTimeoutError case (200 ms) meets its timer.
const client = (timeoutMs = 5_000) =>
  createBaasClient({ baseUrl: server.url, token: SECRET_TOKEN, timeoutMs, retry: false });
const update = (body: NaturalPersonUpdate = fullUpdate(), timeoutMs?: number): Promise<BaasError> =>
  client(timeoutMs)
    .updateNaturalPerson({ account: VALID_ACCOUNT, documentNumber: VALID_CPF, body })
    .then(() => {
      throw new Error('expected the update to fail');
    })
    .catch((e: unknown) => e as BaasError);

function everyForm(error: BaasError): string {
  return [
    error.message,
    String(error),
    error.stack,
    JSON.stringify(error),
    inspect(error, { depth: 10 }),
    error.url,
  ].join('\n');
}

const expectClean = (error: BaasError): void => {
  const text = everyForm(error);
  expect(text).not.toContain(SECRET_TOKEN);
  expect(text).not.toContain(VALID_CPF);
  expect(text).not.toContain('529.982.247-25');
};

describe('redaction', () => {
  it('a BaasApiError whose problem echoes the token and the CPF', async () => {
    server.handle((_req, res) =>
      json(res, 404, {
        title: 'Not found',
        status: 404,
        detail: `No customer ${VALID_CPF} (529.982.247-25) for token Bearer ${SECRET_TOKEN}`,
        token: SECRET_TOKEN,
      }),
    );
    const error = await update();
    expect(error.kind).toBe('api');
    expectClean(error);
    expect(error.url).toContain('DocumentNumber=*********25');
    expect(error.message).toContain('*********25');
  });

  it('a BaasResponseError with an HTML page that echoes them', async () => {
    server.handle((_req, res) =>
      res.writeHead(502, { 'content-type': 'text/html' }).end(`<html>${VALID_CPF} ${SECRET_TOKEN}</html>`),
    );
    const error = await update();
    expect(error.kind).toBe('response');
    expectClean(error);
  });

  it('a BaasTimeoutError', async () => {
    server.handle(() => undefined);
    const error = await update(fullUpdate(), 200);
    expect(error.kind).toBe('timeout');
    expectClean(error);
  });

  it('a BaasNetworkError', async () => {
    server.handle((req) => req.socket.destroy());
    const error = await update();
    expect(error.kind).toBe('network');
    expectClean(error);
  });

  it('a BaasValidationError', async () => {
    const error = (await client()
      .updateNaturalPerson({
        account: VALID_ACCOUNT,
        documentNumber: '52998224724',
        body: { phoneNumber: SECRET_TOKEN },
      })
      .catch((e: unknown) => e)) as BaasError;
    expect(error.kind).toBe('validation');
    const text = everyForm(error);
    expect(text).not.toContain(SECRET_TOKEN);
    expect(text).not.toContain('52998224724');
  });
});

describe('redaction leaves prose alone', () => {
  it.each([
    'A valid bearer token is required.',
    'Send a Bearer token in the Authorization header.',
    'Bearer authentication failed for this account',
    'The bearer credentials expired; request a new one.',
  ])('"%s" reaches the user intact', async (sentence) => {
    const { redactText } = await import('../../src/redact.js');
    expect(redactText(sentence)).toBe(sentence);
  });

  it.each([
    [`Authorization: Bearer abc`, 'Authorization: [REDACTED]'],
    ['Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig-nature_x', 'Bearer [REDACTED]'],
    ['token was Bearer 0123456789abcdef0123', 'token was Bearer [REDACTED]'],
  ])('a credential is masked where it is one: %s', async (text, expected) => {
    const { redactText } = await import('../../src/redact.js');
    expect(redactText(text)).toBe(expected);
  });

  it("the mock's 401 detail reaches a BaasApiError unchanged", async () => {
    server.handle((_req, res) =>
      json(res, 401, {
        type: 'about:blank',
        title: 'Unauthorized',
        status: 401,
        detail: 'A valid bearer token is required.',
      }),
    );
    const error = await update();
    expect(error.kind).toBe('api');
    expect(error.message).toContain('A valid bearer token is required.');
  });
});
