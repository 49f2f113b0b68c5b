// `npm run bench`: every figure measured side by side in one run, printed against its budget and
// written to .artifacts/bench/results.json. Timings are never asserted in tests.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../scripts/lib/paths.mjs';
import { described } from './lib/failure.js';
import { fmt, printBudgets, type BudgetLine } from './lib/stats.js';
import { measureOverhead } from './overhead.js';
import { measureValidation } from './validation.js';
import { measurePagination } from './pagination.js';
import { measurePipeline } from './pipeline.js';
import { measureColdStart } from './coldstart.js';
import { measureTypecheck } from './typecheck.js';
import { measureSandbox, measureSandboxMemory } from './sandbox.js';
import { measureDrift, SAMPLE_ITEMS } from './drift.js';
import { measureTracing } from './tracing.js';
import { measureBatch } from './batch.js';

const started = performance.now();
const machine = {
  cpus: cpus().length,
  cpu: cpus()[0]?.model ?? 'unknown',
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
};
// The 1-minute load average before and after: above the CPU count, other work shared the cores and the
// timings (not the sizes) are suspect.
const loadBefore = loadavg()[0]!;
console.log(`machine: ${machine.cpus} × ${machine.cpu}, Node ${machine.node}, load ${loadBefore.toFixed(2)}`);

// A step that fails is reported as a line naming it and its cause, the others still run, and the run
// exits with 1 at the end: one failure never hides the other figures nor ends as an unhandled rejection.
const failures: { step: string; error: string }[] = [];
let current = 'starting';
process.on('unhandledRejection', (reason) => {
  console.error(`\n✗ ${current}: an unhandled rejection: ${described(reason)}`);
  failures.push({ step: current, error: `unhandled rejection: ${described(reason)}` });
});
process.on('uncaughtException', (error) => {
  console.error(`\n✗ ${current}: ${described(error)}\nbench: stopped; no results written.`);
  process.exit(1);
});
const step = async <T>(name: string, work: () => Promise<T>): Promise<T | undefined> => {
  const t = performance.now();
  current = name;
  process.stdout.write(`• ${name} … `);
  try {
    const result = await work();
    console.log(`${((performance.now() - t) / 1000).toFixed(1)} s`);
    return result;
  } catch (error) {
    console.log(`FAILED after ${((performance.now() - t) / 1000).toFixed(1)} s`);
    console.error(`  ✗ ${described(error)}`);
    failures.push({ step: name, error: described(error) });
    return undefined;
  }
};

const overhead = await step('per-request overhead', () => measureOverhead());
const validation = await step('validation cost', () => measureValidation());
const pagination = await step('pagination at scale', () => measurePagination());
const pipeline = await step('pipeline, real and 50× spec', () => measurePipeline());
const coldStart = await step('cold start beside bare openapi-fetch (builds dist/ first)', () => measureColdStart());
const typecheck = await step('consumer type-check', () => measureTypecheck());
const sandbox = await step('sandbox beside Prism', () => measureSandbox());
const sandboxMemory = await step('sandbox memory, per 100,000 keys and at its limits', async () =>
  measureSandboxMemory(),
);
const drift = await step('response validation of a 200-key page', () => measureDrift());
const tracing = await step('OpenTelemetry: api absent, no SDK, SDK context only, tracing on', () => measureTracing());
const batch = await step('batch work: rate-limited sandbox, beside Promise.all, 1,000,000 input lines', () =>
  measureBatch(),
);
current = 'the summary';

const r = (s: { median: number; min: number; max: number }, digits = 3) =>
  `${fmt(s.median, digits)} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`;
const lines: BudgetLine[] = [];
if (overhead)
  lines.push(
    {
      figure: 'ours / bare openapi-fetch + timeout signal (median, min–max)',
      value: r(overhead.ratioToOpenapiFetchWithTimeout),
      budget: '≤ 1.05',
      pass: overhead.ratioToOpenapiFetchWithTimeout.median <= 1.05,
    },
    { figure: 'ours / bare openapi-fetch', value: r(overhead.ratioToOpenapiFetch), budget: '—', pass: null },
    { figure: 'ours / raw fetch', value: r(overhead.ratioToRawFetch.baasClient), budget: '—', pass: null },
    {
      figure: 'bare openapi-fetch + timeout signal / raw fetch',
      value: r(overhead.ratioToRawFetch.openapiFetchWithTimeout),
      budget: '—',
      pass: null,
    },
    {
      figure: 'bare openapi-fetch / raw fetch',
      value: r(overhead.ratioToRawFetch.openapiFetch),
      budget: '—',
      pass: null,
    },
    {
      figure: 'raw fetch + timeout signal / raw fetch',
      value: r(overhead.ratioToRawFetch.rawFetchWithTimeout),
      budget: '—',
      pass: null,
    },
  );
if (validation)
  lines.push(
    {
      figure: 'validation of a full update body (µs)',
      value: `${fmt(validation.validationUs.median, 2)} µs, ${Math.round(validation.opsPerSecond)} ops/s`,
      budget: '—',
      pass: null,
    },
    {
      figure: 'query + CPF validation (µs)',
      value: fmt(validation.queryValidationUs.median, 2),
      budget: '—',
      pass: null,
    },
    {
      figure: 'body validation / loopback request',
      value: `${(validation.shareOfRequest * 100).toFixed(2)} %`,
      budget: '< 1 %',
      pass: validation.shareOfRequest < 0.01,
    },
  );
if (pagination)
  lines.push(
    {
      figure: 'heap growth, page 10 → 1,000 (MB)',
      value: `${fmt(pagination.heapGrowthMB, 2)} (${fmt(pagination.heapAtPage10MB, 1)} → ${fmt(pagination.heapAtLastPageMB, 1)})`,
      budget: 'flat (< 5 MB)',
      pass: pagination.heapGrowthMB < 5,
    },
    {
      figure: 'pixKeys time per key / raw cursor loop',
      value: r(pagination.ratioToRawLoop),
      budget: '≤ 1.10',
      pass: pagination.ratioToRawLoop.median <= 1.1,
    },
    {
      figure: 'pixKeys time per key / raw loop + timeout signal',
      value: r(pagination.ratioToRawLoopWithTimeout),
      budget: '—',
      pass: null,
    },
  );
if (pipeline)
  lines.push(
    { figure: 'pipeline total, real spec (s)', value: fmt(pipeline.real.ms.total / 1000, 2), budget: '—', pass: null },
    {
      figure: 'pipeline total, 50× spec (s)',
      value: fmt(pipeline.synthetic.ms.total / 1000, 2),
      budget: '—',
      pass: null,
    },
    {
      figure: 'pipeline time ratio / size ratio',
      value: `${fmt(pipeline.timeRatio.total, 2)} / ${fmt(pipeline.sizeRatio, 1)}`,
      budget: 'report',
      pass: null,
    },
  );
if (coldStart)
  lines.push(
    {
      figure: 'cold start to first answer, ours (ms)',
      value: r(coldStart.firstAnswerMs.ours),
      budget: 'report',
      pass: null,
    },
    {
      figure: 'cold start to first answer, bare openapi-fetch (ms)',
      value: r(coldStart.firstAnswerMs.bare),
      budget: 'report',
      pass: null,
    },
    {
      figure: 'cold start, ours / bare openapi-fetch (per round)',
      value: r(coldStart.ratio),
      budget: 'report',
      pass: null,
    },
  );
if (typecheck)
  lines.push(
    { figure: 'consumer type-check (ms)', value: r(typecheck.consumerTypecheckMs, 0), budget: 'report', pass: null },
    {
      figure: 'consumer type-check, ours / bare openapi-fetch (per round)',
      value: r(typecheck.ratio),
      budget: 'report',
      pass: null,
    },
  );
if (sandbox)
  lines.push(
    {
      figure: 'sandbox, 10,000 keys to the first page (ms)',
      value: `${r(sandbox.startMs.toFirstPage10k, 1)}; createSandbox ${fmt(sandbox.startMs.sandbox10k.median, 1)}; first in process ${fmt(sandbox.startMs.sandboxFirst, 0)} (loads Faker)`,
      budget: '< 50',
      pass: sandbox.startMs.toFirstPage10k.median < 50,
    },
    {
      figure: 'Prism to its first page / sandbox to its first page',
      value: `${fmt(sandbox.ratio.startToFirstPage, 0)} (${fmt(sandbox.startMs.prismToFirstPage.median, 0)} ms)`,
      budget: 'report',
      pass: null,
    },
    {
      figure: 'sandbox in process / Prism (req/s, per round)',
      value: `${r(sandbox.ratio.inProcess, 1)}; ${Math.round(sandbox.requestsPerSecond.inProcess.median)} / ${Math.round(sandbox.requestsPerSecond.prism.median)}`,
      budget: '≥ 20',
      pass: sandbox.ratio.inProcess.median >= 20,
    },
    {
      figure: 'sandbox in process, every page new / Prism (req/s, per round)',
      value: `${r(sandbox.ratio.inProcessUncached, 1)}; ${Math.round(sandbox.requestsPerSecond.inProcessUncached.median)} / ${Math.round(sandbox.requestsPerSecond.prism.median)}`,
      budget: 'report',
      pass: null,
    },
    {
      figure: 'sandbox over HTTP / Prism (req/s, per round)',
      value: `${r(sandbox.ratio.http, 1)}; ${Math.round(sandbox.requestsPerSecond.http.median)} / ${Math.round(sandbox.requestsPerSecond.prism.median)}`,
      budget: '≥ 5',
      pass: sandbox.ratio.http.median >= 5,
    },
    {
      figure: 'sandbox heap with 100,000 keys (MB)',
      value: fmt(sandbox.heap.with100kMB, 2),
      budget: '< 100',
      pass: sandbox.heap.with100kMB < 100,
    },
    {
      figure: 'sandbox heap growth, walk of 100,000 keys, page 10 → end (MB)',
      value: fmt(sandbox.heap.walkGrowthMB, 2),
      budget: 'flat (< 5 MB)',
      pass: sandbox.heap.walkGrowthMB < 5,
    },
  );
if (sandboxMemory)
  lines.push(
    {
      figure: 'sandbox memory per 100,000 keys (MB)',
      value: fmt(sandboxMemory.perHundredThousandKeysMB, 1),
      budget: 'report',
      pass: null,
    },
    {
      figure: 'largest sandbox the limits allow (MB)',
      value: `${fmt(sandboxMemory.largestMB, 1)} (${sandboxMemory.largest.clients} × ${sandboxMemory.largest.accountsPerClient} × ${sandboxMemory.largest.keysPerAccount})`,
      budget: '< 256',
      pass: sandboxMemory.largestMB < 256,
    },
  );
if (drift)
  lines.push(
    {
      figure: '200-key page: response check, every key / loopback request',
      value: `${(drift.shareOfRequest * 100).toFixed(2)} % (${fmt(drift.checkUs.median, 1)} µs / ${fmt(drift.loopbackRequestUs.median, 1)} µs)`,
      budget: '< 2 %',
      pass: drift.shareOfRequest < 0.02,
    },
    {
      figure: '200-key page: full validator only (no fast path) / loopback request',
      value: `${(drift.fullShareOfRequest * 100).toFixed(2)} % (${fmt(drift.fullCheckUs.median, 1)} µs)`,
      budget: '—',
      pass: null,
    },
    {
      figure: `200-key page: response check, first ${SAMPLE_ITEMS} keys / loopback request`,
      value: `${(drift.sampledShareOfRequest * 100).toFixed(2)} % (${fmt(drift.sampledCheckUs.median, 1)} µs)`,
      budget: '< 2 %',
      pass: drift.sampledShareOfRequest < 0.02,
    },
  );
if (tracing)
  lines.push(
    {
      figure: 'no SDK registered / @opentelemetry/api absent (per round)',
      value: r(tracing.ratio.offToAbsent),
      budget: '≤ 1.05',
      pass: tracing.ratio.offToAbsent.median <= 1.05,
    },
    {
      figure: 'tracing on / no SDK registered (per round)',
      value: r(tracing.ratio.onToOff),
      budget: 'report',
      pass: null,
    },
    {
      figure: 'tracing on / the SDK context only: the spans themselves',
      value: r(tracing.ratio.onToContext),
      budget: 'report',
      pass: null,
    },
  );
if (batch)
  lines.push(
    {
      figure: 'updateMany, sandbox at 50 req/s, rate: 50 (share of the limit)',
      value: fmt(batch.withRate.shareOfLimit, 3),
      budget: '≥ 0.90',
      pass: batch.withRate.shareOfLimit >= 0.9,
    },
    {
      figure: 'updateMany, sandbox at 50 req/s stating its policy, no rate (share)',
      value: `${fmt(batch.statedLimit.shareOfLimit, 3)} (${batch.statedLimit.overloaded} × 429)`,
      budget: '≥ 0.90',
      pass: batch.statedLimit.shareOfLimit >= 0.9,
    },
    {
      figure: 'updateMany, sandbox at 50 req/s stating nothing, no rate (share)',
      value: `${fmt(batch.unstatedLimit.shareOfLimit, 3)} (${batch.unstatedLimit.ok}/${batch.unstatedLimit.items} ok, ${batch.unstatedLimit.overloaded} × 429)`,
      budget: 'report',
      pass: null,
    },
    {
      figure: 'updateMany / Promise.all over chunks of 8, unlimited sandbox (time)',
      value: r(batch.unlimited.ratio),
      budget: 'report',
      pass: null,
    },
    {
      figure: 'updateMany heap growth over 1,000,000 input lines (MB)',
      value: `${fmt(batch.memory.heapGrowthMB, 2)} (RSS ${fmt(batch.memory.rssGrowthMB, 1)})`,
      budget: 'flat (< 5)',
      pass: batch.memory.heapGrowthMB < 5,
    },
  );
console.log('');
printBudgets(lines);
if (pipeline)
  console.log('\npipeline steps (ms): real', pipeline.real.ms, '\n                     50×', pipeline.synthetic.ms);

const load = { before: loadBefore, after: loadavg()[0]! };
const results = {
  date: new Date().toISOString(),
  machine,
  load,
  seconds: (performance.now() - started) / 1000,
  overhead,
  validation,
  pagination,
  pipeline,
  coldStart,
  typecheck,
  sandbox,
  sandboxMemory,
  batch,
  drift,
  tracing,
  budgets: lines,
  failures,
};
const out = join(repoRoot, '.artifacts', 'bench');
await mkdir(out, { recursive: true });
await writeFile(join(out, 'results.json'), JSON.stringify(results, null, 2));
console.log(`\nresults: .artifacts/bench/results.json (${results.seconds.toFixed(0)} s in all)`);
if (failures.length > 0) {
  console.error(`\nbench: ${failures.length} step(s) failed; their figures are missing above and in results.json:`);
  for (const failure of failures) console.error(`  ✗ ${failure.step}: ${failure.error}`);
  process.exitCode = 1;
}
