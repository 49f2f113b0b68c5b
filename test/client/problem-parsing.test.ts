// What an answer becomes, through the client with an injected fetch: data, a BaasApiError built from
// problem details, the upstream envelope or a text body, or a BaasResponseError for what is not the
// contract (HTML, invalid JSON, a redirect not followed). Each error's toJSON() is pinned but for its
// message, whose format test/client/errors.test.ts pins once: here a message is checked for what it
// names (the operation, the status, what went wrong) and for what it hides.
import { describe, expect, it } from 'vitest';
import { createBaasClient, type BaasApiError, type BaasError, type BaasResponseError } from '../../src/index.js';
import { VALID_ACCOUNT, VALID_CPF } from '../support/fixtures.js';

const BASE = 'https://api.example.test';
const TOKEN = 'opaque-session-value';
const LIST_URL = `${BASE}/v2/api/pix/keys/list-keys`;
const UPDATE_URL = `${BASE}/v2/api/baas-onboarding/account/natural-person?Account=${VALID_ACCOUNT}&DocumentNumber=*********25`;

const answering = (response: () => Response) =>
  createBaasClient({ baseUrl: BASE, token: TOKEN, retry: false, fetch: async () => response() });

// As bytes, so that a body given without a content type has none (a string body would be text/plain).
const answer =
  (status: number, body: string | null, headers: Record<string, string> = {}) =>
  () =>
    new Response(body === null ? null : new TextEncoder().encode(body), { status, headers });

async function listError(response: () => Response): Promise<BaasError> {
  return answering(response)
    .listPixKeys()
    .then(
      () => expect.unreachable('the call should fail'),
      (error: unknown) => error as BaasError,
    );
}

const update = (response: () => Response) =>
  answering(response).updateNaturalPerson({
    account: VALID_ACCOUNT,
    documentNumber: VALID_CPF,
    body: { socialName: 'Maria' },
  });

async function updateError(response: () => Response): Promise<BaasError> {
  return update(response).then(
    () => expect.unreachable('the call should fail'),
    (error: unknown) => error as BaasError,
  );
}

const listContext = { operation: 'listPixKeys', method: 'GET', url: LIST_URL, attempts: 1 };

/** toJSON() without the message (checked apart, for what it names). */
function fields(error: BaasError): Record<string, unknown> {
  const json: Record<string, unknown> = { ...error.toJSON() };
  expect(json.message).toBe(error.message);
  delete json.message;
  return json;
}

describe('problem details', () => {
  it('become BaasApiError.problem, redacted, with the status, title and detail in the message', async () => {
    const problem = {
      type: 'https://errors.example.test/rate',
      status: 429,
      title: 'Too Many Requests',
      detail: `token ${TOKEN} of CPF ${VALID_CPF}`,
    };
    const error = await listError(
      answer(429, JSON.stringify(problem), {
        'content-type': 'application/problem+json',
        'x-request-id': 'req-1',
        'retry-after': '7',
      }),
    );
    const redacted = { ...problem, detail: 'token [REDACTED] of CPF *********25' };
    expect(error.message).toMatch(/^listPixKeys: HTTP 429 /);
    expect(error.message).toContain(`${problem.title}: ${redacted.detail}`);
    expect(error.message).not.toContain(TOKEN);
    expect(fields(error)).toStrictEqual({
      name: 'BaasApiError',
      kind: 'api',
      status: 429,
      problem: redacted,
      retryAfterMs: 7_000,
      requestId: 'req-1',
      ...listContext,
    });
  });

  it('without a type (or with one that is not a string) have type about:blank (RFC 9457)', async () => {
    const noType = (await listError(
      answer(400, '{"title":"Bad Request","status":400}', { 'content-type': 'application/problem+json' }),
    )) as BaasApiError;
    expect(noType.problem).toStrictEqual({ type: 'about:blank', title: 'Bad Request', status: 400 });
    const numericType = (await listError(
      answer(400, '{"type":7,"title":"Bad Request"}', { 'content-type': 'application/json' }),
    )) as BaasApiError;
    expect(numericType.problem).toStrictEqual({ type: 'about:blank', title: 'Bad Request' });
  });

  it('give the request id from correlationId when there is no X-Request-Id, and X-Request-Id wins when there is', async () => {
    const body = JSON.stringify({ title: 'Internal Server Error', correlationId: 'corr-9' });
    expect((await listError(answer(500, body, { 'content-type': 'application/problem+json' }))).requestId).toBe(
      'corr-9',
    );
    expect(
      (await listError(answer(500, body, { 'content-type': 'application/problem+json', 'x-request-id': 'req-2' })))
        .requestId,
    ).toBe('req-2');
    const numeric = await listError(
      answer(500, '{"title":"x","correlationId":42}', { 'content-type': 'application/problem+json' }),
    );
    expect(numeric.requestId).toBeUndefined();
    expect(numeric.toJSON()).not.toHaveProperty('requestId');
  });

  it('read as JSON whatever the content type says, when it parses', async () => {
    const error = (await listError(
      answer(403, '{"title":"Forbidden"}', { 'content-type': 'text/plain' }),
    )) as BaasApiError;
    expect(error.problem).toStrictEqual({ type: 'about:blank', title: 'Forbidden' });
  });
});

describe("the upstream provider's envelope", () => {
  it('gives BaasApiError.code, the code as the title and the message (redacted) as the detail', async () => {
    const body = JSON.stringify({
      status: 'ERROR',
      error: { errorCode: 'CIE999', message: `Conta ${VALID_CPF} não encontrada` },
    });
    const error = await listError(answer(404, body, { 'content-type': 'application/json' }));
    expect(error.message).toContain('HTTP 404 CIE999:');
    expect(error.message).toContain('Conta *********25');
    expect(fields(error)).toStrictEqual({
      name: 'BaasApiError',
      kind: 'api',
      status: 404,
      code: 'CIE999',
      problem: { type: 'about:blank', status: 404, title: 'CIE999', detail: 'Conta *********25 não encontrada' },
      ...listContext,
    });
  });

  it('without a code (or a code that is not a string) is titled "Upstream error"; without a message it has no detail', async () => {
    const noCode = (await listError(answer(500, '{"status":"ERROR","error":{"message":"falha"}}'))) as BaasApiError;
    expect(noCode.code).toBeUndefined();
    expect(noCode.problem).toStrictEqual({
      type: 'about:blank',
      status: 500,
      title: 'Upstream error',
      detail: 'falha',
    });
    const numericCode = (await listError(
      answer(500, '{"status":"ERROR","error":{"errorCode":12,"message":7}}'),
    )) as BaasApiError;
    expect(numericCode.code).toBeUndefined();
    expect(numericCode.problem).toStrictEqual({ type: 'about:blank', status: 500, title: 'Upstream error' });
    const emptyMessage = (await listError(
      answer(500, '{"status":"ERROR","error":{"errorCode":"E1","message":""}}'),
    )) as BaasApiError;
    expect(emptyMessage.problem).toStrictEqual({ type: 'about:blank', status: 500, title: 'E1' });
    expect(emptyMessage.message).toMatch(/HTTP 500 E1 \(GET/);
  });

  it('is only an envelope with status ERROR and an error object: anything else is read as problem details', async () => {
    for (const body of [
      { status: 'ERROR', error: null },
      { status: 'ERROR', error: 'boom' },
      { status: 'FAIL', error: { errorCode: 'X' } },
    ]) {
      const error = (await listError(answer(500, JSON.stringify(body)))) as BaasApiError;
      expect(error.code, JSON.stringify(body)).toBeUndefined();
      expect(error.problem, JSON.stringify(body)).toStrictEqual({ ...body, type: 'about:blank' });
    }
  });
});

describe('a text body', () => {
  it('is the detail of an about:blank problem, redacted and truncated', async () => {
    const text = `upstream down for ${TOKEN} ${'x'.repeat(600)}`;
    const error = (await listError(answer(503, text, { 'content-type': 'text/plain' }))) as BaasApiError;
    const shown = `upstream down for [REDACTED] ${'x'.repeat(600)}`;
    const detail = `${shown.slice(0, 500)}… (${shown.length - 500} more characters)`;
    expect(error.message).toContain(`HTTP 503 ${detail} (GET`);
    expect(fields(error)).toStrictEqual({
      name: 'BaasApiError',
      kind: 'api',
      status: 503,
      problem: { type: 'about:blank', status: 503, detail },
      ...listContext,
    });
  });

  it('that mentions <html> later on is still text', async () => {
    const error = (await listError(
      answer(500, 'error near <html> tag', { 'content-type': 'text/plain' }),
    )) as BaasApiError;
    expect(error.problem).toStrictEqual({ type: 'about:blank', status: 500, detail: 'error near <html> tag' });
  });

  it('empty, JSON null, a JSON array or a JSON number: no problem at all', async () => {
    for (const body of ['', 'null', '[1,2]', '42']) {
      const error = await listError(answer(500, body));
      expect(error.message, body).toMatch(/HTTP 500 \(GET/);
      expect(fields(error), body).toStrictEqual({ name: 'BaasApiError', kind: 'api', status: 500, ...listContext });
    }
  });
});

describe('answers that are not the contract: BaasResponseError', () => {
  it('an HTML page, by its content type or by its first tag', async () => {
    const page = '<html><body>502 Bad Gateway</body></html>';
    const error = await listError(answer(502, page, { 'content-type': 'TEXT/HTML; charset=utf-8' }));
    expect(error.message).toContain('HTML page');
    expect(error.message).toContain('(HTTP 502, TEXT/HTML; charset=utf-8)');
    expect(fields(error)).toStrictEqual({
      name: 'BaasResponseError',
      kind: 'response',
      status: 502,
      contentType: 'TEXT/HTML; charset=utf-8',
      bodySnippet: page,
      ...listContext,
    });
    for (const text of ['\n  <!DOCTYPE html><p>down</p>', '<HTML>down</HTML>']) {
      const untyped = (await listError(answer(500, text, { 'content-type': 'text/plain' }))) as BaasResponseError;
      expect([untyped.kind, untyped.contentType], text).toEqual(['response', 'text/plain']);
      expect(untyped.message, text).toMatch(/HTML page.*500, text.plain/);
    }
  });

  it('an error body that claims JSON and is not', async () => {
    const error = await listError(
      answer(500, `{"title": "cut ${TOKEN}`, { 'content-type': 'Application/Problem+JSON' }),
    );
    expect(error.message).toMatch(/not valid JSON.*500/);
    expect(error.message).not.toContain(TOKEN);
    expect(fields(error)).toStrictEqual({
      name: 'BaasResponseError',
      kind: 'response',
      status: 500,
      contentType: 'Application/Problem+JSON',
      bodySnippet: '{"title": "cut [REDACTED]',
      ...listContext,
    });
  });

  it('a blank error body with a JSON type is a BaasApiError, not a broken body', async () => {
    for (const body of ['', ' \n']) {
      const error = await listError(answer(500, body, { 'content-type': 'application/json' }));
      expect(error.kind, JSON.stringify(body)).toBe('api');
      expect(error.message, JSON.stringify(body)).toMatch(/^listPixKeys: HTTP 500/);
    }
  });

  it('a redirect for a PUT, not followed, or a 3xx without a Location', async () => {
    const redirected = await updateError(answer(307, 'moved', { location: 'https://elsewhere.test/x' }));
    expect(redirected.message).toMatch(/^updateNaturalPerson: .*redirect.*followed.*307/);
    expect(fields(redirected)).toStrictEqual({
      name: 'BaasResponseError',
      kind: 'response',
      status: 307,
      contentType: '',
      bodySnippet: 'moved',
      operation: 'updateNaturalPerson',
      method: 'PUT',
      url: UPDATE_URL,
      attempts: 1,
    });
    const bare = await listError(answer(300, '{"choices":[]}', { 'content-type': 'application/json' }));
    expect(bare.message).toMatch(/unexpected status.*300, application.json/);
    expect(bare.toJSON()).not.toHaveProperty('bodySnippet');
  });
});

describe('a success body', () => {
  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'application/vnd.baas.v2+json',
    'application/problem+json',
    '',
  ])('is parsed as JSON with the content type %j', async (type) => {
    const body = { version: '1.0.0', status: 'SUCCESS' };
    await expect(
      update(answer(200, JSON.stringify(body), type ? { 'content-type': type } : {})),
    ).resolves.toStrictEqual(body);
  });

  it('that is blank is undefined', async () => {
    await expect(update(answer(200, '  \n', { 'content-type': 'text/plain' }))).resolves.toBeUndefined();
    await expect(update(answer(200, null))).resolves.toBeUndefined();
  });

  it.each(['text/plain', 'application/jsonp', 'text/plain; profile=application/json', 'application/xml'])(
    'of type %j is "expected a JSON body"',
    async (type) => {
      const error = await updateError(answer(200, `{"ok":true,"token":"${TOKEN}"}`, { 'content-type': type }));
      expect(error.message).toContain(`body (HTTP 200, ${type})`);
      expect(fields(error)).toStrictEqual({
        name: 'BaasResponseError',
        kind: 'response',
        status: 200,
        contentType: type,
        bodySnippet: '{"ok":true,"token":"[REDACTED]"}',
        operation: 'updateNaturalPerson',
        method: 'PUT',
        url: UPDATE_URL,
        attempts: 1,
      });
    },
  );

  it('that is not valid JSON is "the body is not valid JSON", with no content type at all too', async () => {
    const error = await updateError(answer(200, 'not json'));
    expect(error.message).toMatch(/not valid JSON.*200/);
    expect(fields(error)).toStrictEqual({
      name: 'BaasResponseError',
      kind: 'response',
      status: 200,
      contentType: '',
      bodySnippet: 'not json',
      operation: 'updateNaturalPerson',
      method: 'PUT',
      url: UPDATE_URL,
      attempts: 1,
    });
  });
});

it('a final 429 carries what its rate-limit header fields say', async () => {
  const error = (await listError(
    answer(429, '', { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '30' }),
  )) as BaasApiError;
  expect(error.rateLimit).toStrictEqual({ source: 'separate-fields', limit: 100, remaining: 0, resetSeconds: 30 });
});
