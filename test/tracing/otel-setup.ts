// An OpenTelemetry SDK as an application registers it, for the tracing tests: spans kept in memory,
// W3C trace context propagation, async context. `stopOtel` unregisters all of it.
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { createBaasClient } from '../../src/index.js';
import { createSandbox } from '../../src/sandbox/index.js';

export function startOtel(): { exporter: InMemorySpanExporter; provider: BasicTracerProvider } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  return { exporter, provider };
}

export function stopOtel(): void {
  trace.disable();
  propagation.disable();
  context.disable();
  metrics.disable();
}

/** A client of a fresh in-process sandbox, its fetch recording each request's headers. */
export function sandboxClient(options: { validate?: boolean } = {}) {
  const sandbox = createSandbox();
  const sent: Headers[] = [];
  const client = sandbox.clients[0]!;
  const baas = createBaasClient({
    baseUrl: 'https://sandbox.baas.test',
    token: client.token,
    ...options,
    fetch: (input, init) => {
      sent.push(new Headers(init?.headers));
      return sandbox.fetch(input, init);
    },
  });
  return { sandbox, baas, sent, token: client.token, customer: client.accounts[0]! };
}

/** Everything an exporter would send of a span, as text. */
export const serialized = (spans: readonly ReadableSpan[]): string =>
  JSON.stringify(
    spans.map((span) => ({
      name: span.name,
      attributes: span.attributes,
      status: span.status,
      events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
      links: span.links,
    })),
  );
