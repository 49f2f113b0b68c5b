// What a span and the duration metric say of how a call ended: the package's own errors give their
// redacted message, what a caller aborts with is never read, an error answer of a raw call (which
// does not throw) is an error span with no exception, and an outcome's absent parts are absent.
import { metrics, SpanStatusCode, type SpanStatus, trace } from '@opentelemetry/api';
import { type HistogramMetricData, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, type ReadableSpan, type Span, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { BaasApiError } from '../../src/index.js';
import { sandboxClient, startOtel, stopOtel } from './otel-setup.js';

class CollectOnDemand extends MetricReader {
  protected override onShutdown = () => Promise.resolve();
  protected override onForceFlush = () => Promise.resolve();
}

const { exporter } = startOtel();
afterAll(stopOtel);
beforeEach(() => exporter.reset());

const LIST_PATH = '/v2/api/pix/keys/list-keys';
const only = (): ReadableSpan => {
  expect(exporter.getFinishedSpans()).toHaveLength(1);
  return exporter.getFinishedSpans()[0]!;
};
const exceptionOf = (span: ReadableSpan) => span.events.find((event) => event.name === 'exception')?.attributes;

/** A call of listPixKeys aborted with `reason` before its answer. */
async function abortedWith(reason: unknown): Promise<ReadableSpan> {
  const { baas } = sandboxClient();
  const controller = new AbortController();
  controller.abort(reason);
  await baas.listPixKeys({ signal: controller.signal }).catch(() => undefined);
  return only();
}

describe('a failed call’s span', () => {
  it('shows the package error’s redacted message in its exception event and its status', async () => {
    const { baas, sandbox } = sandboxClient();
    sandbox.inject({ operation: 'listPixKeys', status: 403 });
    const error = (await baas.listPixKeys().catch((caught: unknown) => caught)) as BaasApiError;
    expect(error).toBeInstanceOf(BaasApiError);
    const span = only();
    expect(exceptionOf(span)).toStrictEqual({ 'exception.type': 'BaasApiError', 'exception.message': error.message });
    expect(span.status).toStrictEqual({ code: SpanStatusCode.ERROR, message: error.message });
  });

  it('never reads the message of what a caller aborts with', async () => {
    const span = await abortedWith({ name: 'not a name', message: 'the caller’s own words' });
    expect(exceptionOf(span)).toStrictEqual({ 'exception.type': '_OTHER' });
    expect(span.status).toStrictEqual({ code: SpanStatusCode.ERROR });
    expect(span.attributes['error.type']).toBe('_OTHER');
  });

  it('names a caller’s reason by its name, and one with no name by _OTHER', async () => {
    expect(exceptionOf(await abortedWith(new DOMException('stop', 'AbortError')))).toEqual({
      'exception.type': 'AbortError',
    });
    exporter.reset();
    expect(exceptionOf(await abortedWith('stop'))).toEqual({ 'exception.type': '_OTHER' });
  });

  it('types an error with a kind but no name by its kind, and reads only a text message', async () => {
    const span = await abortedWith({ kind: 'custom', message: 42 });
    expect(exceptionOf(span)).toStrictEqual({ 'exception.type': 'custom' });
    expect(span.status).toStrictEqual({ code: SpanStatusCode.ERROR });
  });

  it('marks a raw call’s error answer (which does not throw) as an error, with no exception event', async () => {
    const { baas, sandbox } = sandboxClient();
    sandbox.inject({ operation: 'listPixKeys', status: 400 });
    const { response } = await baas.raw.GET(LIST_PATH, { params: { header: { 'User-Agent': 'tracing-test/1.0' } } });
    expect(response.status).toBe(400);
    const span = only();
    expect(span.status).toStrictEqual({ code: SpanStatusCode.ERROR });
    expect(span.attributes['error.type']).toBe('400');
    expect(span.attributes['http.response.status_code']).toBe(400);
    expect(exceptionOf(span)).toBeUndefined();
  });

  it('a raw call answered below 400 is no error', async () => {
    const { baas } = sandboxClient();
    await baas.raw.GET(LIST_PATH, { params: { header: { 'User-Agent': 'tracing-test/1.0' } } });
    const span = only();
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes['error.type']).toBeUndefined();
  });
});

describe('the duration metric’s attributes', () => {
  it('have no status code without an answer and no error.type for a success: not even as undefined', async () => {
    const reader = new CollectOnDemand();
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    try {
      const { baas, sandbox } = sandboxClient();
      await baas.listPixKeys({ limit: 1 });
      sandbox.inject({ operation: 'listPixKeys', drop: true });
      await baas.listPixKeys({ retry: false }).catch(() => undefined);
      const { resourceMetrics } = await reader.collect();
      const [metric] = resourceMetrics.scopeMetrics
        .flatMap((scope) => scope.metrics)
        .filter((found) => found.descriptor.name === 'http.client.request.duration') as HistogramMetricData[];
      const common = {
        'http.request.method': 'GET',
        'server.address': 'sandbox.baas.test',
        'server.port': 443,
        'baas.operation': 'listPixKeys',
      };
      const attributes = metric!.dataPoints.map((point) => point.attributes);
      expect(attributes).toHaveLength(2);
      expect(attributes.find((found) => 'error.type' in found)).toStrictEqual({ ...common, 'error.type': 'network' });
      expect(attributes.find((found) => !('error.type' in found))).toStrictEqual({
        ...common,
        'http.response.status_code': 200,
      });
      expect(metric!.dataPoints[0]!.value.buckets.boundaries).toEqual([
        0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
      ]);
    } finally {
      metrics.disable();
    }
  });
});

describe('what the span is told', () => {
  // Last in this file: it swaps the tracer provider. An SDK may keep a status member even when undefined.
  it('a status with no message member when the error is not the package’s own', async () => {
    const told: SpanStatus[] = [];
    const recording: SpanProcessor = {
      onStart(span: Span) {
        const setStatus = span.setStatus.bind(span);
        span.setStatus = (status) => {
          told.push(status);
          return setStatus(status);
        };
      },
      onEnd: () => undefined,
      forceFlush: () => Promise.resolve(),
      shutdown: () => Promise.resolve(),
    };
    trace.disable();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [recording] }));
    const { baas } = sandboxClient();
    const controller = new AbortController();
    controller.abort({ name: 'Stop', message: 'the caller’s own words' });
    await baas.listPixKeys({ signal: controller.signal }).catch(() => undefined);
    expect(told).toStrictEqual([{ code: SpanStatusCode.ERROR }]);
  });
});
