// The guide's Worker (examples/worker/tracing-worker.ts), its handler called as workerd would call it,
// against the sandbox over HTTP: the API call's span is a child of the request's span, in the trace of
// the traceparent the Worker was called with, and that trace goes on to the API.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { stopOtel } from './otel-setup.js';

vi.mock('baas-pix-contract', () => import('../../src/index.js'));

interface LoggedSpan {
  name: string;
  kind: number;
  traceId: string;
  id: string;
  parentSpanContext?: { spanId: string };
  attributes: Record<string, unknown>;
}

const sandbox = createSandbox();
let running: RunningSandbox;
beforeAll(async () => {
  running = await sandbox.listen();
});
afterAll(async () => {
  await running.stop();
  stopOtel();
});

describe('the Worker example', () => {
  it('answers, and logs the request’s span with the API call’s span as its child, in the caller’s trace', async () => {
    const logged: LoggedSpan[] = [];
    const dir = vi.spyOn(console, 'dir').mockImplementation((span) => void logged.push(span as LoggedSpan));
    const { default: worker } = await import('../../examples/worker/tracing-worker.js');
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const response = await worker.fetch(
      new Request('https://keys.example.workers.dev/keys', {
        headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
      }),
      { BAAS_BASE_URL: running.url, BAAS_TOKEN: sandbox.clients[0]!.token },
    );
    dir.mockRestore();
    expect(response.status).toBe(200);
    expect(((await response.json()) as unknown[]).length).toBe(10);
    const request = logged.find((span) => span.name === 'GET /keys');
    const call = logged.find((span) => span.attributes['baas.operation'] === 'listPixKeys');
    expect(request?.traceId).toBe(traceId);
    expect(call?.traceId).toBe(traceId);
    expect(call?.parentSpanContext?.spanId).toBe(request?.id);
    expect(call?.attributes['server.port']).toBe(running.port);
  });
});
