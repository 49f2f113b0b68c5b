// `http.client.request.duration`, per the semantic conventions: one measurement per call, in seconds,
// with the span's attributes but url.full; recorded only when a meter provider is registered.
import { metrics } from '@opentelemetry/api';
import { type HistogramMetricData, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxClient, stopOtel } from './otel-setup.js';

class CollectOnDemand extends MetricReader {
  protected override onShutdown = () => Promise.resolve();
  protected override onForceFlush = () => Promise.resolve();
}

afterAll(stopOtel);

async function durations(reader: MetricReader): Promise<HistogramMetricData[]> {
  const { resourceMetrics } = await reader.collect();
  return resourceMetrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .filter((metric) => metric.descriptor.name === 'http.client.request.duration') as HistogramMetricData[];
}

describe('the request duration histogram', () => {
  it('has one measurement per call, in seconds, by operation and outcome', async () => {
    const reader = new CollectOnDemand();
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    const { baas, sandbox } = sandboxClient();
    const began = performance.now();
    await baas.listPixKeys({ limit: 1 });
    await baas.listPixKeys({ limit: 1 });
    sandbox.inject({ operation: 'listPixKeys', status: 403 });
    await baas.listPixKeys().catch(() => undefined);
    const elapsedSeconds = (performance.now() - began) / 1000;

    const [metric] = await durations(reader);
    expect(metric?.descriptor.unit).toBe('s');
    const points = metric!.dataPoints.map((point) => ({ attributes: point.attributes, count: point.value.count }));
    const common = {
      'http.request.method': 'GET',
      'server.address': 'sandbox.baas.test',
      'server.port': 443,
      'baas.operation': 'listPixKeys',
    };
    expect(points).toEqual(
      expect.arrayContaining([
        { attributes: { ...common, 'http.response.status_code': 200 }, count: 2 },
        { attributes: { ...common, 'http.response.status_code': 403, 'error.type': '403' }, count: 1 },
      ]),
    );
    expect(points).toHaveLength(2);
    // Seconds, not milliseconds: no call lasted longer than the three together.
    for (const point of metric!.dataPoints) expect(point.value.max).toBeLessThanOrEqual(elapsedSeconds);
  });
});
