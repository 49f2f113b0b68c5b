// `npm run bench:report`: renders .artifacts/bench/results.json as the "Latest run" section of
// BENCHMARKS.md, so the document always holds the numbers of a real run.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot } from '../scripts/lib/paths.mjs';
import type { Summary } from './lib/stats.js';

const results = JSON.parse(await readFile(join(repoRoot, '.artifacts/bench/results.json'), 'utf8'));
const s = (x: Summary, digits = 3) =>
  `${x.median.toFixed(digits)} | ${x.min.toFixed(digits)} | ${x.max.toFixed(digits)}`;
const o = results.overhead;
const p = results.pagination;
const v = results.validation;
const pl = results.pipeline;

const section = `<!-- latest-run:start -->
## Latest run

${results.date}, ${results.machine.cpus} × ${results.machine.cpu}, Node ${results.machine.node} (${results.machine.platform}); ${Math.round(results.seconds)} s in all; 1-minute load average ${results.load ? `${results.load.before.toFixed(2)} before, ${results.load.after.toFixed(2)} after` : 'not recorded'} (the bench itself keeps about one core busy).

### 1. Per-request overhead (${o.rounds} interleaved rounds of ${o.requestsPerRound} requests per caller)

| caller | µs per request: median | min | max |
|---|---|---|---|
| raw fetch | ${s(o.perRequestUs.rawFetch, 1)} |
| raw fetch + timeout signal | ${s(o.perRequestUs.rawFetchWithTimeout, 1)} |
| bare openapi-fetch | ${s(o.perRequestUs.openapiFetch, 1)} |
| bare openapi-fetch + timeout signal | ${s(o.perRequestUs.openapiFetchWithTimeout, 1)} |
| createBaasClient (defaults) | ${s(o.perRequestUs.baasClient, 1)} |

| ratio (per round) | median | min | max | budget |
|---|---|---|---|---|
| createBaasClient / bare openapi-fetch + timeout signal | ${s(o.ratioToOpenapiFetchWithTimeout)} | ≤ 1.05 |
| createBaasClient / bare openapi-fetch | ${s(o.ratioToOpenapiFetch)} | — |
| createBaasClient / raw fetch | ${s(o.ratioToRawFetch.baasClient)} | — |
| bare openapi-fetch + timeout signal / raw fetch | ${s(o.ratioToRawFetch.openapiFetchWithTimeout)} | — |
| bare openapi-fetch / raw fetch | ${s(o.ratioToRawFetch.openapiFetch)} | — |
| raw fetch + timeout signal / raw fetch | ${s(o.ratioToRawFetch.rawFetchWithTimeout)} | — |

### 2. Validation cost

| figure | median | min | max |
|---|---|---|---|
| full update body, µs | ${s(v.validationUs, 2)} |
| query + CPF check digits, µs | ${s(v.queryValidationUs, 2)} |
| loopback request, µs | ${s(v.loopbackRequestUs, 1)} |

Body validation: ${Math.round(v.opsPerSecond).toLocaleString('en')} ops/s, **${(v.shareOfRequest * 100).toFixed(2)} %** of a loopback request (budget < 1 %).

### 3. Pagination at scale (${p.pages} pages × ${p.perPage} keys)

| figure | value |
|---|---|
| heap after GC at page 10 | ${p.heapAtPage10MB.toFixed(1)} MB |
| heap after GC at page ${p.pages} | ${p.heapAtLastPageMB.toFixed(1)} MB |
| growth | **${p.heapGrowthMB.toFixed(2)} MB** (budget: flat) |

| keys per second | median | min | max |
|---|---|---|---|
| pixKeys() | ${s(p.keysPerSecond.pixKeys, 0)} |
| hand-written cursor loop over raw fetch | ${s(p.keysPerSecond.rawLoop, 0)} |
| time per key, pixKeys / raw loop | ${s(p.ratioToRawLoop)} |
| time per key, pixKeys / raw loop + timeout signal (report) | ${p.ratioToRawLoopWithTimeout ? s(p.ratioToRawLoopWithTimeout) : 'not measured | | '} |

### 4. Pipeline

| step | real spec (ms) | 50× spec (ms) | time ratio |
|---|---|---|---|
${(['lint', 'bundle', 'generate', 'docs', 'total'] as const).map((k) => `| ${k} | ${pl.real.ms[k].toFixed(0)} | ${pl.synthetic.ms[k].toFixed(0)} | ${pl.timeRatio[k].toFixed(2)} |`).join('\n')}

Size: ${pl.real.bytes.toLocaleString('en')} → ${pl.synthetic.bytes.toLocaleString('en')} bytes (${pl.sizeRatio.toFixed(1)}×; ${pl.real.paths} → ${pl.synthetic.paths} paths, ${pl.real.schemas} → ${pl.synthetic.schemas} schemas). Time grew **${pl.timeRatio.total.toFixed(2)}×** for **${pl.sizeRatio.toFixed(1)}×** the size: each tool's start-up dominates the real spec. Lint problems: ${pl.real.lintProblems} on the real spec, ${pl.synthetic.lintProblems} on the synthetic one (copied operations without their own tags and the like; timing only).

### 5. Cold start (\`bench/coldstart.ts\`)

${coldStartSection(results)}
${results.sandbox ? sandboxSection(results.sandbox, results.sandboxMemory) : ''}${results.tracing ? tracingSection(results.tracing) : ''}
<!-- latest-run:end -->`;

function coldStartSection(results: any): string {
  const c = results.coldStart;
  // Runs from before the cold start was measured hold the gzip size instead.
  if (!c) return 'Not measured in this run.';
  const t = results.typecheck.consumerTypecheckMs;
  return `A fresh Node process imports the built entry (dist/index.js), creates a client and makes one call to a loopback server on 127.0.0.1; beside it, a fresh process imports bare openapi-fetch and makes the same call. ${c.runs} runs each, alternating; ms from the process's start (Node's boot included) to the first answer, and from spawn to exit.

| figure | median | min | max |
|---|---|---|---|
| first answer, createBaasClient from dist/index.js (ms) | ${s(c.firstAnswerMs.ours, 1)} |
| first answer, bare openapi-fetch (ms) | ${s(c.firstAnswerMs.bare, 1)} |
| ours / bare, per round | **${s(c.ratio)}** |
| spawn to exit, ours (ms) | ${s(c.processMs.ours, 1)} |
| spawn to exit, bare openapi-fetch (ms) | ${s(c.processMs.bare, 1)} |

Consumer type-check (tsc --noEmit, strict, imports everything): ${t.median.toFixed(0)} ms median (${t.min.toFixed(0)}–${t.max.toFixed(0)}).`;
}

function tracingSection(t: any): string {
  return `
### 7. OpenTelemetry (\`bench/tracing.ts\`)

GET list-keys against the loopback server, ${t.rounds} interleaved rounds of ${t.requestsPerRound} calls of one client, what is registered switched between rounds.

| mode | µs per call: median | min | max |
|---|---|---|---|
| @opentelemetry/api absent | ${s(t.perRequestUs.absent, 1)} |
| api installed, no SDK registered | ${s(t.perRequestUs.off, 1)} |
| the SDK's async context and propagator, no tracer provider | ${s(t.perRequestUs.context, 1)} |
| tracing on (in-memory exporter, ${t.spansPerRound} spans a round) | ${s(t.perRequestUs.on, 1)} |

| ratio (per round) | median | min | max | budget |
|---|---|---|---|---|
| no SDK / api absent | ${s(t.ratio.offToAbsent)} | ≤ 1.05 |
| tracing on / no SDK | ${s(t.ratio.onToOff)} | — |
| tracing on / SDK context only (the spans themselves) | ${s(t.ratio.onToContext)} | — |
| SDK context only / no SDK | ${s(t.ratio.contextToOff)} | — |
`;
}

function sandboxSection(sb: any, memory: any): string {
  const rps = (x: Summary) => `${Math.round(x.median)} | ${Math.round(x.min)} | ${Math.round(x.max)}`;
  return `
### 6. Sandbox beside Prism (\`bench/sandbox.ts\`)

GET list-keys?limit=50, every body read; 5 interleaved rounds of 1 s. Prism answers its 3-key example; the sandbox copies a 50-key page from the keys it compiled at creation. Over HTTP both servers run in a process of their own (Prism: \`startMock()\`; the sandbox: the command line's \`sandbox\`), driven by the same \`node:http\` keep-alive client with 4 requests in flight (Node's \`fetch\` as the client was the bottleneck: ${sb.ratio.httpFetch ? `${sb.ratio.httpFetch.toFixed(1)} × through it` : 'also measured'}); in process, one loop calls \`sandbox.fetch(url, init)\`, as the client does.

| figure | median | min | max | budget |
|---|---|---|---|---|
| start, \`createSandbox\` with 10,000 keys (ms) | ${s(sb.startMs.sandbox10k, 2)} | < 50 |
| start, Prism until listening (ms) | ${s(sb.startMs.prism, 0)} | — |
| Prism (req/s) | ${rps(sb.requestsPerSecond.prism)} | — |
| sandbox in process (req/s) | ${rps(sb.requestsPerSecond.inProcess)} | ≥ 20 × Prism: **${sb.ratio.inProcess.toFixed(1)} ×** |
| sandbox in process, every page new (walking all 200 pages in turn) (req/s) | ${sb.requestsPerSecond.inProcessUncached ? rps(sb.requestsPerSecond.inProcessUncached) : '—'} | ${sb.ratio.inProcessUncached ? `${sb.ratio.inProcessUncached.toFixed(1)} ×` : '—'} |
| sandbox over HTTP (req/s) | ${rps(sb.requestsPerSecond.http)} | ≥ 5 × Prism: **${sb.ratio.http.toFixed(1)} ×** |

The first \`createSandbox\` of a process also loads Faker: ${sb.startMs.sandboxFirst.toFixed(0)} ms. Heap: 100,000 keys add ${sb.heap.with100kMB.toFixed(2)} MB (budget < 100 MB: each key is compiled once at creation into compact JSON bytes, about 0.4 MB per 1,000 keys; heap and array buffers counted); a full walk of them (${sb.heap.keysWalked.toLocaleString('en')} keys, limit 200) grows the heap by ${sb.heap.walkGrowthMB.toFixed(2)} MB from page 10 to the end.
${
  memory
    ? `
Memory (\`bench/sandbox.ts --memory\`): ${memory.perHundredThousandKeysMB.toFixed(1)} MB per 100,000 keys (250,000 keys in 5 accounts); the largest sandbox the limits allow, in its most costly shape (${memory.largest.clients} clients × ${memory.largest.accountsPerClient} accounts × ${memory.largest.keysPerAccount} keys), ${memory.largestMB.toFixed(1)} MB (budget < 256 MB).
`
    : ''
}`;
}

const file = join(repoRoot, 'BENCHMARKS.md');
const current = await readFile(file, 'utf8').catch(() => '');
const next = /<!-- latest-run:start -->[\s\S]*<!-- latest-run:end -->/.test(current)
  ? current.replace(/<!-- latest-run:start -->[\s\S]*<!-- latest-run:end -->/, section)
  : `${current}\n${section}\n`;
await writeFile(file, next);
console.log('BENCHMARKS.md updated from .artifacts/bench/results.json');
