// With @opentelemetry/api and an SDK registered, each call is one CLIENT span named and described
// per the HTTP client semantic conventions, its attempts events on it, its trace context sent.
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { BaasApiError, BaasNetworkError } from '../../src/index.js';
import { sandboxClient, startOtel, stopOtel } from './otel-setup.js';

const { exporter } = startOtel();
afterAll(stopOtel);
beforeEach(() => exporter.reset());

const LIST_PATH = '/v2/api/pix/keys/list-keys';
const UPDATE_PATH = '/v2/api/baas-onboarding/account/natural-person';
const spans = (): ReadableSpan[] => exporter.getFinishedSpans();
const only = (): ReadableSpan => {
  expect(spans()).toHaveLength(1);
  return spans()[0]!;
};

describe('a call with a tracer provider registered', () => {
  it('is one CLIENT span named by method and route template, with the conventions’ attributes', async () => {
    const { baas } = sandboxClient();
    await baas.listPixKeys({ limit: 2 });
    const span = only();
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.name).toBe(`GET ${LIST_PATH}`);
    expect(span.attributes).toEqual({
      'http.request.method': 'GET',
      'server.address': 'sandbox.baas.test',
      'server.port': 443,
      'url.full': `https://sandbox.baas.test${LIST_PATH}?limit=REDACTED`,
      'http.response.status_code': 200,
      'baas.operation': 'listPixKeys',
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.events.map((event) => event.name)).toEqual(['baas.attempt', 'baas.response']);
  });

  it('names the update by its template, with no query value in url.full', async () => {
    const { baas, customer } = sandboxClient();
    await baas.updateNaturalPerson({ ...customer, body: { phoneNumber: '+5511987654321' } });
    const span = only();
    expect(span.name).toBe(`PUT ${UPDATE_PATH}`);
    expect(span.attributes['url.full']).toBe(
      `https://sandbox.baas.test${UPDATE_PATH}?Account=REDACTED&DocumentNumber=REDACTED`,
    );
    expect(span.attributes['baas.operation']).toBe('updateNaturalPerson');
  });

  it('shows each attempt of a retried call, and http.request.resend_count', async () => {
    const { baas, sandbox } = sandboxClient();
    sandbox.inject({ operation: 'listPixKeys', status: 503, times: 1, headers: { 'Retry-After': '0' } });
    await baas.listPixKeys();
    const span = only();
    expect(span.attributes['http.request.resend_count']).toBe(1);
    expect(span.attributes['http.response.status_code']).toBe(200);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.events.map((event) => [event.name, event.attributes])).toEqual([
      ['baas.attempt', { 'baas.attempt': 1 }],
      ['baas.response', { 'baas.attempt': 1, 'http.response.status_code': 503 }],
      ['baas.retry', { 'baas.attempt': 1, 'baas.retry.wait_ms': 0, 'baas.retry.reason': 'HTTP 503' }],
      ['baas.attempt', { 'baas.attempt': 2 }],
      ['baas.response', { 'baas.attempt': 2, 'http.response.status_code': 200 }],
    ]);
  });

  it('marks an error answer: status ERROR, error.type the status, an exception event of the error class', async () => {
    const { baas, sandbox } = sandboxClient();
    sandbox.inject({ operation: 'listPixKeys', status: 403 });
    const error = await baas.listPixKeys().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BaasApiError);
    const span = only();
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe('403');
    expect(span.attributes['http.response.status_code']).toBe(403);
    expect(span.attributes['http.request.resend_count']).toBeUndefined();
    const exception = span.events.find((event) => event.name === 'exception');
    expect(exception?.attributes?.['exception.type']).toBe('BaasApiError');
  });

  it('marks a failure with no answer by the error kind, and no status code', async () => {
    const { baas, sandbox } = sandboxClient();
    sandbox.inject({ operation: 'listPixKeys', drop: true });
    await expect(baas.listPixKeys({ retry: false })).rejects.toBeInstanceOf(BaasNetworkError);
    const span = only();
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe('network');
    expect(span.attributes['http.response.status_code']).toBeUndefined();
  });

  it('sends traceparent with the span’s trace id and span id, on every attempt', async () => {
    const { baas, sandbox, sent } = sandboxClient();
    sandbox.inject({ operation: 'listPixKeys', status: 503, times: 1, headers: { 'Retry-After': '0' } });
    await baas.listPixKeys();
    const { traceId, spanId } = only().spanContext();
    expect(sent.map((headers) => headers.get('traceparent'))).toEqual([
      `00-${traceId}-${spanId}-01`,
      `00-${traceId}-${spanId}-01`,
    ]);
  });

  it('is a child of the span active where the call was made', async () => {
    const { baas } = sandboxClient();
    const outer = trace.getTracer('test');
    const parentId = await outer.startActiveSpan('job', async (parent) => {
      await baas.listPixKeys();
      parent.end();
      return parent.spanContext().spanId;
    });
    const call = spans().find((span) => span.kind === SpanKind.CLIENT)!;
    expect(call.parentSpanContext?.spanId).toBe(parentId);
  });

  it('names a raw call by the route it matches', async () => {
    const { baas } = sandboxClient();
    await baas.raw.GET(LIST_PATH, { params: { query: { limit: 1 }, header: { 'User-Agent': 'tracing-test/1.0' } } });
    const span = only();
    expect(span.name).toBe(`GET ${LIST_PATH}`);
    expect(span.attributes['baas.operation']).toBe('listPixKeys');
    expect(span.attributes['url.full']).toBe(`https://sandbox.baas.test${LIST_PATH}?limit=REDACTED`);
  });
});
