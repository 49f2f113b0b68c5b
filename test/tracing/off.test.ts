// Tracing costs nothing a caller sees when it is off: with the api but no SDK registered, and with no
// api at all (its import fails, as when the optional peer is not installed), calls work and send no
// trace context; a provider registered later is used from then on.
import { trace } from '@opentelemetry/api';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { BaasApiError } from '../../src/index.js';
import { loadApiWith } from '../../src/tracing/otel.js';
import { sandboxClient, startOtel, stopOtel } from './otel-setup.js';

// A test that fails half-way leaves nothing registered for the next.
afterEach(stopOtel);
afterAll(() => loadApiWith(() => import('@opentelemetry/api')));

describe('with @opentelemetry/api and no tracer provider', () => {
  it('a call does not even load the api while nothing is registered', async () => {
    const loader = vi.fn(() => import('@opentelemetry/api'));
    loadApiWith(loader);
    const { baas } = sandboxClient();
    await baas.listPixKeys({ limit: 1 });
    expect(loader).not.toHaveBeenCalled();
  });

  it('calls work and send no traceparent; a provider registered later gets the next call', async () => {
    const { baas, sent } = sandboxClient();
    expect((await baas.listPixKeys({ limit: 1 })).data).toHaveLength(1);
    expect(sent[0]!.has('traceparent')).toBe(false);

    const { exporter } = startOtel();
    await baas.listPixKeys({ limit: 1 });
    expect(exporter.getFinishedSpans()).toHaveLength(1);
    expect(sent[1]!.has('traceparent')).toBe(true);
    stopOtel();
  });
});

describe('providers changing', () => {
  it('a provider registered after another was unregistered gets the next call', async () => {
    const { baas } = sandboxClient();
    const first = startOtel().exporter;
    await baas.listPixKeys({ limit: 1 });
    stopOtel();
    const second = startOtel().exporter;
    await baas.listPixKeys({ limit: 1 });
    stopOtel();
    expect([first.getFinishedSpans().length, second.getFinishedSpans().length]).toEqual([1, 1]);
  });

  it('an SDK that throws changes no call’s outcome', async () => {
    const fails = () => {
      throw new Error('the SDK failed');
    };
    const span = {
      isRecording: () => true,
      spanContext: () => ({ traceId: `${'0'.repeat(31)}1`, spanId: `${'0'.repeat(15)}1`, traceFlags: 1 }),
      setAttribute: fails,
      setAttributes: fails,
      addEvent: fails,
      setStatus: fails,
      end: fails,
    };
    trace.setGlobalTracerProvider({ getTracer: () => ({ startSpan: () => span, startActiveSpan: fails }) } as never);
    const { baas, sandbox } = sandboxClient();
    expect((await baas.listPixKeys({ limit: 1 })).data).toHaveLength(1);
    sandbox.inject({ operation: 'listPixKeys', status: 403 });
    await expect(baas.listPixKeys()).rejects.toBeInstanceOf(BaasApiError);
    stopOtel();
    // An SDK whose spans cannot even start.
    trace.setGlobalTracerProvider({ getTracer: () => ({ startSpan: fails, startActiveSpan: fails }) } as never);
    expect((await baas.listPixKeys({ limit: 1 })).data).toHaveLength(1);
    stopOtel();
  });
});

describe('without @opentelemetry/api', () => {
  it('calls work, with no span and no traceparent, even with a provider registered', async () => {
    loadApiWith(() => Promise.reject(new Error("Cannot find package '@opentelemetry/api'")));
    const { exporter } = startOtel();
    const { baas, sandbox, sent } = sandboxClient();
    sandbox.inject({ operation: 'listPixKeys', status: 503, times: 1, headers: { 'Retry-After': '0' } });
    expect((await baas.listPixKeys({ limit: 1 })).data).toHaveLength(1);
    await expect(baas.listPixKeys({ limit: 0 })).rejects.toMatchObject({ kind: 'validation' });
    expect(sent).toHaveLength(2);
    expect(sent.some((headers) => headers.has('traceparent'))).toBe(false);
    expect(exporter.getFinishedSpans()).toEqual([]);
    // The provider itself works: a span of the application's own is exported.
    trace.getTracer('test').startSpan('own').end();
    expect(exporter.getFinishedSpans()).toHaveLength(1);
  });

  it('a module without the api’s members is the api missing', async () => {
    loadApiWith(async () => ({ default: {} }));
    const { exporter } = startOtel();
    const { baas, sent } = sandboxClient();
    await baas.listPixKeys({ limit: 1 });
    expect(sent[0]!.has('traceparent')).toBe(false);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
