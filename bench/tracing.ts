// What OpenTelemetry costs a call, against a loopback server: one client, interleaved rounds of
// - `absent`: no @opentelemetry/api (its import fails, through the loader seam of src/tracing/otel.ts);
// - `off`: the api installed, no SDK registered (a process that does not trace);
// - `context`: the SDK's async context (AsyncLocalStorage) and W3C propagator, no tracer provider:
//   what the application's SDK costs every promise, before any span;
// - `on`: the same with a tracer provider and an in-memory exporter (a span per call, its events,
//   traceparent on every request).
// `on / context` is the client's own spans; `on / off` what turning tracing on costs in all.
// What is registered is switched between rounds, so all four share the server, the client and the JIT.
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createBaasClient } from '../src/index.js';
import { loadApiWith } from '../src/tracing/otel.js';
import { exampleServer } from './lib/servers.js';
import { summarize, type Summary } from './lib/stats.js';
import { focused } from './lib/failure.js';

type Mode = 'absent' | 'off' | 'context' | 'on';

export interface TracingResult {
  perRequestUs: Record<Mode, Summary>;
  /** Per round. */
  ratio: { onToOff: Summary; onToContext: Summary; contextToOff: Summary; offToAbsent: Summary };
  spansPerRound: number;
  rounds: number;
  requestsPerRound: number;
}

const importApi = () => import('@opentelemetry/api');

export async function measureTracing(rounds = 21, perRound = 200): Promise<TracingResult> {
  const server = await exampleServer();
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const contextManager = new AsyncLocalStorageContextManager();
  const register = () => {
    trace.setGlobalTracerProvider(provider);
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    context.setGlobalContextManager(contextManager.enable());
  };
  const unregister = () => {
    trace.disable();
    propagation.disable();
    context.disable();
  };
  const modes: Record<Mode, () => void> = {
    absent: () => {
      unregister();
      loadApiWith(() => Promise.reject(new Error('@opentelemetry/api is not installed')));
    },
    off: () => {
      unregister();
      loadApiWith(importApi);
    },
    context: () => {
      unregister();
      propagation.setGlobalPropagator(new W3CTraceContextPropagator());
      context.setGlobalContextManager(contextManager.enable());
      loadApiWith(importApi);
    },
    on: () => {
      register();
      loadApiWith(importApi);
    },
  };
  let spansPerRound = 0;
  try {
    const client = createBaasClient({ baseUrl: server.url, token: 'bench-token-0123456789', userAgent: 'bench/1.0' });
    const names = Object.keys(modes) as Mode[];
    // Warm up the connection pool and the JIT in each mode.
    for (const name of names) {
      modes[name]();
      for (let i = 0; i < 300; i += 1) await client.listPixKeys();
    }

    const samples: Record<Mode, number[]> = { absent: [], off: [], context: [], on: [] };
    for (let round = 0; round < rounds; round += 1) {
      const order = names.map((_, i) => names[(i + round) % names.length]!);
      for (const name of order) {
        modes[name]();
        // The first call after a switch loads the api again (from Node's module cache): not timed.
        await client.listPixKeys();
        exporter.reset();
        const start = process.hrtime.bigint();
        for (let i = 0; i < perRound; i += 1) await client.listPixKeys();
        samples[name].push(Number(process.hrtime.bigint() - start) / 1000 / perRound);
        if (name === 'on') spansPerRound = exporter.getFinishedSpans().length;
      }
    }
    const ratio = (a: number[], b: number[]) => summarize(a.map((value, i) => value / b[i]!));
    return {
      perRequestUs: {
        absent: summarize(samples.absent),
        off: summarize(samples.off),
        context: summarize(samples.context),
        on: summarize(samples.on),
      },
      ratio: {
        onToOff: ratio(samples.on, samples.off),
        onToContext: ratio(samples.on, samples.context),
        contextToOff: ratio(samples.context, samples.off),
        offToAbsent: ratio(samples.off, samples.absent),
      },
      spansPerRound,
      rounds,
      requestsPerRound: perRound,
    };
  } finally {
    unregister();
    loadApiWith(importApi);
    await provider.shutdown();
    await server.close();
  }
}

// `node --import tsx bench/tracing.ts`: these figures alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  await focused(async () => console.log(JSON.stringify(await measureTracing(), null, 2)));
}
