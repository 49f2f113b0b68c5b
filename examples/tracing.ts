// Trace the client's calls with OpenTelemetry: register an SDK, and each call is a CLIENT span.
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createBaasClient } from 'baas-pix-contract';
import { serviceFromEnv } from './support/service.js';

// What an application does once at start-up (`NodeSDK` from @opentelemetry/sdk-node does all three).
// In production, a BatchSpanProcessor with an OTLP exporter instead of the console.
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())] });
trace.setGlobalTracerProvider(provider);
propagation.setGlobalPropagator(new W3CTraceContextPropagator()); // sends `traceparent`
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable()); // parents across awaits

const service = serviceFromEnv();
console.error(`Calling ${service.description}`);
// No tracing option: the client finds @opentelemetry/api and the provider registered above.
const baas = createBaasClient({ ...service.client, userAgent: 'examples/1.0' });

// The call's span is a child of the span active where it is made.
await trace.getTracer('examples').startActiveSpan('nightly-key-report', async (job) => {
  const page = await baas.listPixKeys({ limit: 5 });
  console.log(`${page.data.length} keys`);
  job.end();
});
await provider.shutdown(); // flushes what is left
