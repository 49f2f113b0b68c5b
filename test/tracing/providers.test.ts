// How the api and what an SDK registers are found: a tracer and a histogram once per provider, any
// one provider enough to turn tracing on, and an api module of another shape (a bundler's `default`,
// an older api without metrics) used as far as it goes; one missing a member is not used at all.
import * as api from '@opentelemetry/api';
import { metrics, propagation, trace } from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { loadApiWith } from '../../src/tracing/otel.js';
import { sandboxClient, startOtel, stopOtel } from './otel-setup.js';

afterEach(() => {
  stopOtel();
  loadApiWith(() => import('@opentelemetry/api'));
});
afterAll(stopOtel);

/** A tracer provider of its own (no propagator, no meter), its spans kept in memory. */
function tracerOnly(options: { sampler?: AlwaysOffSampler } = {}) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ ...options, spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  return { exporter, provider };
}

describe('what is registered', () => {
  it('a tracer provider alone turns tracing on, and its tracer is got once', async () => {
    const { exporter, provider } = tracerOnly();
    const getTracer = vi.spyOn(provider, 'getTracer');
    const { baas } = sandboxClient();
    await baas.listPixKeys({ limit: 1 });
    await baas.listPixKeys({ limit: 1 });
    expect(exporter.getFinishedSpans()).toHaveLength(2);
    expect(getTracer).toHaveBeenCalledTimes(1);
  });

  it('a meter provider alone turns the duration on: one histogram per provider, per the conventions', async () => {
    const record = vi.fn();
    const createHistogram = vi.fn(() => ({ record }));
    const getMeter = vi.fn(() => ({ createHistogram }));
    metrics.setGlobalMeterProvider({ getMeter } as never);
    const { baas, sent } = sandboxClient();
    await baas.listPixKeys({ limit: 1 });
    await baas.listPixKeys({ limit: 1 });
    expect(getMeter).toHaveBeenCalledTimes(1);
    expect(createHistogram).toHaveBeenCalledTimes(1);
    expect(createHistogram).toHaveBeenCalledWith('http.client.request.duration', {
      unit: 's',
      description: 'Duration of HTTP client requests.',
      advice: { explicitBucketBoundaries: [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10] },
    });
    expect(record).toHaveBeenCalledTimes(2);
    expect(record.mock.calls[0]![1]).toMatchObject({
      'baas.operation': 'listPixKeys',
      'http.response.status_code': 200,
    });
    // No propagator registered: nothing to send.
    expect(sent[0]!.has('traceparent')).toBe(false);
  });

  it('a span nobody records and no meter: the call goes on, its trace context still sent', async () => {
    const { exporter } = tracerOnly({ sampler: new AlwaysOffSampler() });
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    const { baas, sent } = sandboxClient();
    expect((await baas.listPixKeys({ limit: 1 })).data).toHaveLength(1);
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(sent[0]!.get('traceparent')).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
  });

  it('a propagator alone sends on the trace context the call was made in', async () => {
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const incoming = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1 };
    const { baas, sent } = sandboxClient();
    await api.context.with(trace.setSpanContext(api.ROOT_CONTEXT, incoming), () => baas.listPixKeys({ limit: 1 }));
    expect(sent[0]!.get('traceparent')).toBe(`00-${incoming.traceId}-${incoming.spanId}-01`);
  });

  it('a registry that is null is nothing registered', async () => {
    const key = Symbol.for('opentelemetry.js.api.1');
    const globals = globalThis as Record<symbol, unknown>;
    const before = globals[key];
    globals[key] = null;
    try {
      const { baas, sent } = sandboxClient();
      expect((await baas.listPixKeys({ limit: 1 })).data).toHaveLength(1);
      expect(sent[0]!.has('traceparent')).toBe(false);
    } finally {
      globals[key] = before;
    }
  });
});

describe('the api module', () => {
  it('given as a bundler’s default export is used', async () => {
    loadApiWith(async () => ({ default: api }));
    const { exporter } = startOtel();
    const { baas } = sandboxClient();
    await baas.listPixKeys({ limit: 1 });
    expect(exporter.getFinishedSpans()).toHaveLength(1);
  });

  it('without metrics or createNoopMeter (older api versions) still traces', async () => {
    for (const older of [
      { ...api, metrics: undefined },
      { ...api, createNoopMeter: undefined },
    ]) {
      loadApiWith(async () => older);
      const { exporter } = startOtel();
      const { baas } = sandboxClient();
      await baas.listPixKeys({ limit: 1 });
      expect(exporter.getFinishedSpans()).toHaveLength(1);
      stopOtel();
    }
  });

  it('without createNoopMeter, with a meter provider of its own, still traces', async () => {
    loadApiWith(async () => ({ ...api, createNoopMeter: undefined }));
    const { exporter } = startOtel();
    // A provider this module has not seen yet, so its meter is looked at afresh.
    metrics.setGlobalMeterProvider({ getMeter: () => api.createNoopMeter() });
    const { baas } = sandboxClient();
    await baas.listPixKeys({ limit: 1 });
    expect(exporter.getFinishedSpans()).toHaveLength(1);
  });

  it('that resolves to nothing is the api missing', async () => {
    loadApiWith(async () => undefined);
    const { exporter } = startOtel();
    const { baas, sent } = sandboxClient();
    expect((await baas.listPixKeys({ limit: 1 })).data).toHaveLength(1);
    expect(sent[0]!.has('traceparent')).toBe(false);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('missing any of trace, context, propagation or SpanKind is not used at all', async () => {
    for (const left of ['trace', 'context', 'propagation', 'SpanKind'] as const) {
      const getTracerProvider = vi.fn(() => trace.getTracerProvider());
      const active = vi.fn(() => api.context.active());
      const inject = vi.fn();
      const members = {
        trace: { ...trace, getTracerProvider, setSpan: trace.setSpan },
        context: { active },
        propagation: { inject },
        SpanKind: api.SpanKind,
      };
      const partial = { ...members, [left]: undefined };
      loadApiWith(async () => ({ default: partial }));
      startOtel();
      const { baas } = sandboxClient();
      expect((await baas.listPixKeys({ limit: 1 })).data).toHaveLength(1);
      expect([getTracerProvider, active, inject].map((spy) => spy.mock.calls.length)).toEqual([0, 0, 0]);
      stopOtel();
    }
  });
});
