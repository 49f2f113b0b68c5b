// A Cloudflare Worker whose calls to the API are traced, each a child of the request's own span.
// wrangler.toml: `compatibility_flags = ["nodejs_compat"]` (AsyncLocalStorage, for the async context).
// Secrets: BAAS_BASE_URL and BAAS_TOKEN (`npx wrangler secret put BAAS_TOKEN`).
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createBaasClient } from 'baas-pix-contract';

interface Env {
  BAAS_BASE_URL: string;
  BAAS_TOKEN: string;
}

// Once per isolate. The console is what Workers Logs keeps; an OTLP exporter sends spans elsewhere.
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())] });
trace.setGlobalTracerProvider(provider);
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    // The caller's traceparent, if it sent one, is the parent of this request's span.
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
