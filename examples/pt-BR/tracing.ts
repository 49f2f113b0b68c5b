// Rastreie as chamadas do cliente com OpenTelemetry: registre um SDK, e cada chamada é um span CLIENT.
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createBaasClient } from 'baas-pix-contract';
import { serviceFromEnv } from './support/service.js';

// O que uma aplicação faz uma vez ao iniciar (o `NodeSDK` de @opentelemetry/sdk-node faz os três).
// Em produção, um BatchSpanProcessor com um exportador OTLP em vez do console.
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())] });
trace.setGlobalTracerProvider(provider);
propagation.setGlobalPropagator(new W3CTraceContextPropagator()); // envia `traceparent`
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable()); // mantém o span pai através dos awaits

const service = serviceFromEnv();
console.error(`Calling ${service.description}`);
// Nenhuma opção de rastreamento: o cliente encontra @opentelemetry/api e o provider registrado acima.
const baas = createBaasClient({ ...service.client, userAgent: 'examples/1.0' });

// O span da chamada é filho do span ativo onde ela é feita.
await trace.getTracer('examples').startActiveSpan('nightly-key-report', async (job) => {
  const page = await baas.listPixKeys({ limit: 5 });
  console.log(`${page.data.length} keys`);
  job.end();
});
await provider.shutdown(); // envia o que sobrou
