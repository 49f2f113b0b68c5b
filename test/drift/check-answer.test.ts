// The client's side of validateResponses (src/drift/answer.ts), given answers directly: what it
// parses and hands back, what counts as a body, the BaasResponseError of 'throw' word for word, and the
// drift event of 'warn' with the call's method, redacted URL and request id.
import { describe, expect, it } from 'vitest';
import type { Call } from '../../src/client/call.js';
import { checkAnswer, type DriftListeners } from '../../src/drift/answer.js';
import type { DriftEvent } from '../../src/drift/index.js';
import { BaasResponseError } from '../../src/errors.js';
import { Secrets } from '../../src/redact.js';
import { firstPageKeys } from '../support/fixtures.js';

const context = {
  operation: 'listPixKeys' as const,
  method: 'GET',
  url: 'https://api.baas.example/keys?limit=5',
  attempts: 1,
  requestId: 'req-42',
  secrets: Secrets.none,
};
const call = { context: () => context, secrets: Secrets.none } as unknown as Call;
const page = () => ({ data: firstPageKeys(), cursor: { next: null } });
// The body as bytes, so that Response adds no content type of its own.
const answer = (text: string, contentType: string | null, status = 200) =>
  new Response(new TextEncoder().encode(text), { status, headers: contentType ? { 'content-type': contentType } : {} });

function kit(onDrift?: (event: DriftEvent) => void) {
  const observed: DriftEvent[] = [];
  const k: DriftListeners = { onDrift, state: { observer: { drift: (event) => observed.push(event) } } };
  return { k, observed };
}

describe('checkAnswer', () => {
  it('hands back the body it parsed from a conformant JSON answer, and reports nothing', async () => {
    const { k, observed } = kit();
    const text = JSON.stringify(page());
    await expect(checkAnswer('throw', k, answer(text, 'application/json; charset=utf-8'), text, call)).resolves.toEqual(
      { body: page() },
    );
    expect(observed).toEqual([]);
  });

  it("'warn': one drift event to the observer and to onDrift, with the call's method, URL and request id; the parsed body still comes back", async () => {
    const heard: DriftEvent[] = [];
    const { k, observed } = kit((event) => heard.push(event));
    const body = page();
    delete (body.data[0] as Partial<(typeof body.data)[0]>).key_status;
    const text = JSON.stringify(body);
    await expect(checkAnswer('warn', k, answer(text, 'application/json'), text, call)).resolves.toEqual({ body });
    const event = {
      type: 'drift',
      operationId: 'listPixKeys',
      status: 200,
      problems: [{ part: 'body', pointer: '/data/0/key_status', rule: 'is required' }],
      method: 'GET',
      url: context.url,
      requestId: 'req-42',
    };
    expect(observed).toEqual([event]);
    expect(heard).toEqual([event]);
  });

  it("'warn' with an onDrift that throws, or none, and no observer: the call goes on", async () => {
    const text = '{}';
    const throwing: DriftListeners = {
      onDrift: () => {
        throw new Error('listener bug');
      },
      state: {},
    };
    await expect(checkAnswer('warn', throwing, answer(text, 'application/json'), text, call)).resolves.toEqual({
      body: {},
    });
    await expect(
      checkAnswer(
        'warn',
        { ...throwing, onDrift: undefined, state: { observer: {} } },
        answer(text, 'application/json'),
        text,
        call,
      ),
    ).resolves.toEqual({ body: {} });
  });

  it("'throw': a BaasResponseError naming the problems, the status and the content type, with the call's context", async () => {
    const { k, observed } = kit();
    const text = JSON.stringify({ data: 'none' });
    const error = (await checkAnswer('throw', k, answer(text, 'application/json'), text, call).catch(
      (e: unknown) => e,
    )) as BaasResponseError;
    expect(error).toBeInstanceOf(BaasResponseError);
    expect(error.message).toBe(
      'listPixKeys: the answer drifted from the contract: body/cursor is required; body/data must be an array (HTTP 200, application/json) (GET https://api.baas.example/keys?limit=5)',
    );
    expect(error).toMatchObject({
      status: 200,
      contentType: 'application/json',
      operation: 'listPixKeys',
      method: 'GET',
      url: context.url,
      requestId: 'req-42',
    });
    expect(error.problems).toEqual([
      { part: 'body', pointer: '/cursor', rule: 'is required' },
      { part: 'body', pointer: '/data', rule: 'must be an array' },
    ]);
    expect(error.bodySnippet).toBeUndefined();
    expect(observed).toEqual([]);
  });

  it("'throw' for an answer without a content type: the error names none", async () => {
    const error = (await checkAnswer('throw', kit().k, answer('{}', null), '{}', call).catch(
      (e: unknown) => e,
    )) as BaasResponseError;
    expect(error.message).toBe(
      'listPixKeys: the answer drifted from the contract: content-type must be application/json (HTTP 200) (GET https://api.baas.example/keys?limit=5)',
    );
    expect(error.contentType).toBeUndefined();
  });

  it('JSON that does not parse is "must be valid JSON", and nothing is handed back', async () => {
    const { k, observed } = kit();
    await expect(
      checkAnswer('warn', k, answer('{"data": [', 'application/json'), '{"data": [', call),
    ).resolves.toBeUndefined();
    expect(observed[0]!.problems).toEqual([{ part: 'body', pointer: '', rule: 'must be valid JSON' }]);
  });

  it('an empty answer is no body at all; blank text is text, not broken JSON', async () => {
    const { k, observed } = kit();
    await expect(checkAnswer('warn', k, answer('', 'application/json'), '', call)).resolves.toBeUndefined();
    await expect(checkAnswer('warn', k, answer('  ', 'application/json'), '  ', call)).resolves.toBeUndefined();
    expect(observed.map((e) => e.problems)).toEqual([
      [{ part: 'body', pointer: '', rule: 'must be an object' }],
      [{ part: 'body', pointer: '', rule: 'must be an object' }],
    ]);
  });

  it('a problem answer of a +json media type is parsed too', async () => {
    const text = JSON.stringify({ type: 'about:blank', title: 'Bad', status: 400 });
    const { k } = kit();
    await expect(checkAnswer('throw', k, answer(text, 'application/problem+json', 400), text, call)).resolves.toEqual({
      body: JSON.parse(text),
    });
  });

  it('a body of another media type is not parsed: the content type is the problem', async () => {
    const { k, observed } = kit();
    const text = '{"data": []}';
    await expect(checkAnswer('warn', k, answer(text, 'text/plain'), text, call)).resolves.toBeUndefined();
    expect(observed[0]!.problems).toEqual([{ part: 'content-type', pointer: '', rule: 'must be application/json' }]);
  });
});

describe('describeProblem', async () => {
  const { describeProblem, driftMessage } = await import('../../src/drift/index.js');
  it('names the part: body with its pointer, header by name, status and content type alone', () => {
    expect(describeProblem({ part: 'body', pointer: '/data/0/key', rule: 'is required' })).toBe(
      'body/data/0/key is required',
    );
    expect(describeProblem({ part: 'body', pointer: '', rule: 'must be valid JSON' })).toBe('body must be valid JSON');
    expect(describeProblem({ part: 'header', pointer: '/retry-after', rule: 'must be an integer' })).toBe(
      'header retry-after must be an integer',
    );
    expect(describeProblem({ part: 'status', pointer: '', rule: 'must be one of the documented statuses 200' })).toBe(
      'status must be one of the documented statuses 200',
    );
    expect(describeProblem({ part: 'content-type', pointer: '', rule: 'must be application/json' })).toBe(
      'content-type must be application/json',
    );
  });

  it('lists five problems in full with no count, and counts a sixth', () => {
    const problems = Array.from({ length: 6 }, (_, i) => ({
      part: 'body' as const,
      pointer: `/${i}`,
      rule: 'is required',
    }));
    expect(driftMessage({ operationId: 'op', status: 200, problems: problems.slice(0, 5) })).toBe(
      'op 200 drifted from the contract: body/0 is required; body/1 is required; body/2 is required; body/3 is required; body/4 is required',
    );
    expect(driftMessage({ operationId: 'op', status: 200, problems })).toBe(
      'op 200 drifted from the contract: body/0 is required; body/1 is required; body/2 is required; body/3 is required; body/4 is required (and 1 more)',
    );
  });
});
