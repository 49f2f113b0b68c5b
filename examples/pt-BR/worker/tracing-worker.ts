// Um Cloudflare Worker cujas chamadas à API são rastreadas, cada uma filha do span da própria requisição.
// wrangler.toml: `compatibility_flags = ["nodejs_compat"]` (AsyncLocalStorage, para o contexto assíncrono).
// Segredos: BAAS_BASE_URL e BAAS_TOKEN (`npx wrangler secret put BAAS_TOKEN`).
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createBaasClient } from 'baas-pix-contract';

interface Env {
  BAAS_BASE_URL: string;
  BAAS_TOKEN: string;
}

// Uma vez por isolate. O console é o que o Workers Logs guarda; um exportador OTLP envia os spans para outro lugar.
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())] });
trace.setGlobalTracerProvider(provider);
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    // O traceparent de quem chamou, se mandou um, é o pai do span desta requisição.
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const caller = propagation.extract(context.active(), headers);
    const tracer = trace.getTracer('keys-worker');
    return tracer.startActiveSpan('GET /keys', { kind: SpanKind.SERVER }, caller, async (span) => {
      try {
        const baas = createBaasClient({ baseUrl: env.BAAS_BASE_URL, token: env.BAAS_TOKEN });
        const page = await baas.listPixKeys({ limit: 10 });
        return Response.json(page.data.map((key) => ({ type: key.key_type, status: key.key_status })));
      } finally {
        span.end();
      }
    });
  },
};
