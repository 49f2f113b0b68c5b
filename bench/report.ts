// `npm run bench:report`: renders .artifacts/bench/results.json as the "Latest run" section of
// BENCHMARKS.md, so the document always holds the numbers of a real run.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot } from '../scripts/lib/paths.mjs';
import type { Summary } from './lib/stats.js';

const results = JSON.parse(await readFile(join(repoRoot, '.artifacts/bench/results.json'), 'utf8'));
const s = (x: Summary, digits = 3) =>
  `${x.median.toFixed(digits)} | ${x.min.toFixed(digits)} | ${x.max.toFixed(digits)}`;
/** A median in bold, its min and max in the next cells. */
const bold = (x: Summary, digits = 3) =>
  `**${x.median.toFixed(digits)}** | ${x.min.toFixed(digits)} | ${x.max.toFixed(digits)}`;
/** A median with its range: "1.02 (0.91–1.20)". */
const range = (x: Summary, digits = 3) =>
  `${x.median.toFixed(digits)} (${x.min.toFixed(digits)}–${x.max.toFixed(digits)})`;
const o = results.overhead;
const p = results.pagination;
const v = results.validation;
const pl = results.pipeline;

const section = `<!-- latest-run:start -->
## Latest run

${results.date}, ${results.machine.cpus} × ${results.machine.cpu}, Node ${results.machine.node} (${results.machine.platform}); ${Math.round(results.seconds)} s in all; 1-minute load average ${results.load ? `${results.load.before.toFixed(2)} before, ${results.load.after.toFixed(2)} after` : 'not recorded'} (the bench itself keeps about one core busy).${failedSteps(results.failures)}

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
${results.sandbox ? sandboxSection(results.sandbox, results.sandboxMemory) : ''}${results.tracing ? tracingSection(results.tracing) : ''}${results.drift ? driftSection(results.drift) : ''}${results.batch ? batchSection(results.batch) : ''}
<!-- latest-run:end -->`;

function failedSteps(failures: { step: string; error: string }[] | undefined): string {
  if (!failures?.length) return '';
  return `\n\n**Failed steps** (their figures are missing below):\n\n${failures.map((f) => `- ${f.step}: ${f.error}`).join('\n')}`;
}

function driftSection(d: any): string {
  return `
### 8. Response validation (\`bench/drift.ts\`)

A 200-key page (${d.pageBytes.toLocaleString('en')} bytes) checked against the contract, beside a loopback GET of the same page with its body parsed, in the same rounds.

| figure | µs: median | min | max | share of the request | budget |
|---|---|---|---|---|---|
| loopback GET of the page, parsed | ${s(d.loopbackRequestUs, 1)} | — | — |
| check, every key (what the client and \`verify\` run) | ${s(d.checkUs, 1)} | **${(d.shareOfRequest * 100).toFixed(2)} %** | < 2 % |
| check, full validator only (no fast path) | ${s(d.fullCheckUs, 1)} | ${(d.fullShareOfRequest * 100).toFixed(2)} % | — |
| check, first keys only (\`sampleItems\`) | ${s(d.sampledCheckUs, 1)} | ${(d.sampledShareOfRequest * 100).toFixed(2)} % | < 2 % |
`;
}

function batchSection(b: any): string {
  const run = (name: string, x: any) =>
    `| ${name} | ${x.ok.toLocaleString('en')} / ${x.items.toLocaleString('en')} | ${x.seconds.toFixed(1)} | **${x.shareOfLimit.toFixed(3)}** | ${x.overloaded} |`;
  return `
### 9. Batch work (\`bench/batch.ts\`)

\`updateMany\` with a concurrency of 8 against the in-process sandbox limited to 50 requests per second: completed updates per second as a share of the limit (budget ≥ 0.90).

| run | ok / items | s | share of the limit | 429 answers |
|---|---|---|---|---|
${run('`rate: 50`', b.withRate)}
${run('no rate, the answers state the policy', b.statedLimit)}
${run('no rate, the answers state nothing', b.unstatedLimit)}

Unlimited sandbox, 2,000 updates, interleaved rounds: \`updateMany\` / \`Promise.all\` over chunks of 8, time per round **${range(b.unlimited.ratio)}** (medians ${b.unlimited.updateManyMs.median.toFixed(0)} and ${b.unlimited.chunksMs.median.toFixed(0)} ms). ${b.memory.lines.toLocaleString('en')} input lines streamed through \`updateMany\` in ${b.memory.seconds.toFixed(1)} s: the heap after GC grew **${b.memory.heapGrowthMB.toFixed(2)} MB** from the first sample to the last (RSS ${b.memory.rssGrowthMB.toFixed(1)} MB; budget flat).
`;
}

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
| ours / bare, per round | ${bold(c.ratio)} |
| spawn to exit, ours (ms) | ${s(c.processMs.ours, 1)} |
| spawn to exit, bare openapi-fetch (ms) | ${s(c.processMs.bare, 1)} |

Consumer type-check (\`tsc --noEmit\`, strict, a file importing everything): ${t.median.toFixed(0)} ms median (${t.min.toFixed(0)}–${t.max.toFixed(0)})${
    results.typecheck.ratio
      ? `; beside it, in alternating rounds, a file using bare openapi-fetch over the same generated types: ${results.typecheck.bareTypecheckMs.median.toFixed(0)} ms, ours / bare per round **${range(results.typecheck.ratio)}**`
      : ''
  }.`;
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

// Runs before per-round sandbox ratios held one number (a ratio of medians). Declarations, hoisted: the
// section above is built before this line runs.
function ratioText(x: Summary | number): string {
  return `${(typeof x === 'number' ? x : x.median).toFixed(1)} ×`;
}
function ratioRow(x: Summary | number): string {
  return typeof x === 'number'
    ? `${x.toFixed(1)} × | — | —`
    : `${x.median.toFixed(1)} × | ${x.min.toFixed(1)} × | ${x.max.toFixed(1)} ×`;
}

function sandboxSection(sb: any, memory: any): string {
  const rps = (x: Summary) => `${Math.round(x.median)} | ${Math.round(x.min)} | ${Math.round(x.max)}`;
  return `
### 6. Sandbox beside Prism (\`bench/sandbox.ts\`)

GET list-keys?limit=50, every body read; ${sb.requestsPerSecond.prism.runs} interleaved rounds of 1 s, each measuring every caller in turn; ratios to Prism are taken per round. Prism answers its 3-key example; the sandbox copies a 50-key page from the keys it compiled at creation. Over HTTP both servers run in a process of their own (Prism: \`startMock()\`; the sandbox: its bare \`listen()\`, without the command line's request log), driven by the same \`node:http\` keep-alive client with 4 requests in flight, a new agent each round (Node's \`fetch\` as the client is the bottleneck: ${ratioText(sb.ratio.httpFetch)} through it); in process, one loop calls \`sandbox.fetch(url, init)\`, as the client does.

| figure | median | min | max | budget |
|---|---|---|---|---|
| 10,000 keys to the first page: \`createSandbox\`, then the first page read in process (ms) | ${sb.startMs.toFirstPage10k ? s(sb.startMs.toFirstPage10k, 2) : '— | — | —'} | < 50 |
| of which \`createSandbox\` (ms) | ${s(sb.startMs.sandbox10k, 2)} | — |
| Prism, start to its first page over HTTP (ms) | ${sb.startMs.prismToFirstPage ? s(sb.startMs.prismToFirstPage, 0) : '— | — | —'} | — |
| Prism (req/s) | ${rps(sb.requestsPerSecond.prism)} | — |
| sandbox in process (req/s) | ${rps(sb.requestsPerSecond.inProcess)} | — |
| sandbox in process, every page new (walking all 200 pages in turn) (req/s) | ${rps(sb.requestsPerSecond.inProcessUncached)} | — |
| sandbox over HTTP (req/s) | ${rps(sb.requestsPerSecond.http)} | — |
| **in process / Prism**, per round | ${ratioRow(sb.ratio.inProcess)} | ≥ 20 × |
| in process, every page new / Prism, per round | ${ratioRow(sb.ratio.inProcessUncached)} | — |
| **over HTTP / Prism**, per round | ${ratioRow(sb.ratio.http)} | ≥ 5 × |

The first \`createSandbox\` of a process also loads Faker: ${sb.startMs.sandboxFirst.toFixed(0)} ms. Heap: 100,000 keys add ${sb.heap.with100kMB.toFixed(2)} MB (budget < 100 MB: each key is compiled once at creation into compact JSON bytes, about 0.4 MB per 1,000 keys; heap and array buffers counted); a full walk of them (${sb.heap.keysWalked.toLocaleString('en')} keys, limit 200) grows the heap by ${sb.heap.walkGrowthMB.toFixed(2)} MB from page 10 to the end.
${
  memory
    ? `
Memory (\`bench/sandbox.ts --memory\`): ${memory.perHundredThousandKeysMB.toFixed(1)} MB per 100,000 keys (250,000 keys in 5 accounts); the largest sandbox the limits allow, in its most costly shape (${memory.largest.clients} clients × ${memory.largest.accountsPerClient} accounts × ${memory.largest.keysPerAccount} keys), ${memory.largestMB.toFixed(1)} MB (budget < 256 MB).
`
    : ''
}`;
}

/**
 * The figures table: each figure, what it is, its value in this run, the target it answers (met or not)
 * and the command that measures it again. Rendered from the run, so no figure is copied by hand.
 */
function figuresSection(results: any): string {
  const rows: string[] = [];
  const verdict = (met: boolean) => (met ? 'met' : '**not met**');
  const row = (figure: string, what: string, latest: string, target: string, again: string) =>
    rows.push(`| ${figure} | ${what} | ${latest} | ${target} | ${again} |`);
  const { overhead: o, validation: v, pagination: p, pipeline: pl, coldStart: c, typecheck: t } = results;
  const { sandbox: sb, sandboxMemory: m, drift: d, tracing: tr, batch: b } = results;
  if (o)
    row(
      'client overhead',
      '`createBaasClient` / bare openapi-fetch given a per-attempt timeout signal, time per loopback request, per round',
      range(o.ratioToOpenapiFetchWithTimeout),
      `per-request overhead against bare openapi-fetch (issue 27): ≤ 1.05, ${verdict(o.ratioToOpenapiFetchWithTimeout.median <= 1.05)}; against bare openapi-fetch without a timeout ${range(o.ratioToOpenapiFetch)}`,
      '`npm run bench` (1); `node --import tsx bench/overhead.ts`',
    );
  if (v)
    row(
      'validation',
      'pre-flight validation of a full update body, as a share of one loopback request, same rounds',
      `${(v.shareOfRequest * 100).toFixed(2)} % (${v.validationUs.median.toFixed(2)} µs)`,
      `< 1 %, ${verdict(v.shareOfRequest < 0.01)}`,
      '`npm run bench` (2)',
    );
  if (p) {
    row(
      'pagination',
      '`pixKeys()` time per key / a hand-written cursor loop over raw fetch, 1,000 pages of 100, per round',
      range(p.ratioToRawLoop),
      `≤ 1.10, ${verdict(p.ratioToRawLoop.median <= 1.1)}`,
      '`npm run bench` (3)',
    );
    row(
      'memory while paging',
      'heap after GC, page 10 against page 1,000',
      `${p.heapGrowthMB.toFixed(2)} MB`,
      `flat (< 5 MB), ${verdict(p.heapGrowthMB < 5)}`,
      '`npm run bench` (3)',
    );
  }
  if (pl)
    row(
      'pipeline',
      'lint + bundle + generate + docs, the real spec beside a 50-fold one',
      `${pl.timeRatio.total.toFixed(2)} × the time for ${pl.sizeRatio.toFixed(1)} × the size`,
      'reported',
      '`npm run bench` (4)',
    );
  if (c)
    row(
      'cold start',
      'a fresh process imports the built entry, creates a client, one call; ours / bare openapi-fetch, per round',
      `${range(c.ratio)}; ${c.firstAnswerMs.ours.median.toFixed(0)} against ${c.firstAnswerMs.bare.median.toFixed(0)} ms`,
      'reported',
      '`node --import tsx bench/coldstart.ts [runs]`',
    );
  if (t)
    row(
      'consumer type check',
      '`tsc --noEmit`, strict, a file importing everything / one using bare openapi-fetch and the generated types, per round',
      t.ratio
        ? `${range(t.ratio)}; ${(t.consumerTypecheckMs.median / 1000).toFixed(1)} s`
        : `${(t.consumerTypecheckMs.median / 1000).toFixed(1)} s`,
      'reported',
      '`npm run bench` (5)',
    );
  if (sb) {
    const first = sb.startMs.toFirstPage10k ?? sb.startMs.sandbox10k;
    row(
      'sandbox to the first page',
      '`createSandbox` with 10,000 keys, then its first page read in process (ms)',
      `${range(first, 1)}; Prism: ${sb.startMs.prismToFirstPage ? `${sb.startMs.prismToFirstPage.median.toFixed(0)} ms to its first page, ${sb.ratio.startToFirstPage.toFixed(0)} × longer` : 'not measured'}`,
      `10,000 keys to the first page under 50 ms (issue 27), ${verdict(first.median < 50)}`,
      '`node --expose-gc --import tsx bench/sandbox.ts`',
    );
    const perRound = (x: Summary | number) => (typeof x === 'number' ? `${x.toFixed(1)} ×` : `${range(x, 1)} ×`);
    const median = (x: Summary | number) => (typeof x === 'number' ? x : x.median);
    row(
      'sandbox in process',
      "requests per second / Prism's, the same page (`sandbox.fetch` in process; Prism over loopback HTTP), per round",
      `${perRound(sb.ratio.inProcess)}; every page new ${perRound(sb.ratio.inProcessUncached)}`,
      `in process at least 20 × Prism (issue 27), ${verdict(median(sb.ratio.inProcess) >= 20)}`,
      'same',
    );
    row(
      'sandbox over HTTP',
      "requests per second / Prism's, each in a process of its own, the same `node:http` client, per round",
      `${perRound(sb.ratio.http)} (${Math.round(sb.requestsPerSecond.http.median)} against ${Math.round(sb.requestsPerSecond.prism.median)} req/s)`,
      `≥ 5 ×, ${verdict(median(sb.ratio.http) >= 5)}`,
      'same',
    );
  }
  if (m)
    row(
      'sandbox memory',
      'heap and ArrayBuffers per 100,000 keys; the largest sandbox the limits allow',
      `${m.perHundredThousandKeysMB.toFixed(1)} MB; ${m.largestMB.toFixed(1)} MB`,
      `< 100 MB, ${verdict(m.perHundredThousandKeysMB < 100)}; < 256 MB, ${verdict(m.largestMB < 256)}`,
      '`node --expose-gc --import tsx bench/sandbox.ts --memory`',
    );
  if (d)
    row(
      'response check',
      'checking a 200-key page against the contract, every key / first 10 keys, as a share of a loopback GET of it',
      `${(d.shareOfRequest * 100).toFixed(2)} % / ${(d.sampledShareOfRequest * 100).toFixed(2)} %`,
      `< 2 %: every key ${verdict(d.shareOfRequest < 0.02)}, sampled ${verdict(d.sampledShareOfRequest < 0.02)}`,
      '`npm run bench` (8)',
    );
  if (tr)
    row(
      'tracing',
      'a call with @opentelemetry/api installed and no SDK / the api absent; tracing on / no SDK, per round',
      `${range(tr.ratio.offToAbsent)}; on: ${range(tr.ratio.onToOff, 2)}`,
      `off ≤ 1.05, ${verdict(tr.ratio.offToAbsent.median <= 1.05)}; on reported`,
      '`node --import tsx bench/tracing.ts`',
    );
  if (b) {
    row(
      'batch at a rate limit',
      "`updateMany` completed updates per second / the sandbox's limit of 50: with `rate: 50`; with no rate, the limit stated",
      `${b.withRate.shareOfLimit.toFixed(3)}; ${b.statedLimit.shareOfLimit.toFixed(3)}`,
      `≥ 0.90: ${verdict(b.withRate.shareOfLimit >= 0.9)}; ${verdict(b.statedLimit.shareOfLimit >= 0.9)}`,
      '`node --expose-gc --import tsx bench/batch.ts`',
    );
    row(
      'batch beside chunks',
      '`updateMany` / `Promise.all` over chunks of 8, 2,000 updates in process, time per round',
      range(b.unlimited.ratio),
      'reported',
      'same',
    );
    row(
      'batch memory',
      'heap after GC over 1,000,000 input lines',
      `${b.memory.heapGrowthMB.toFixed(2)} MB`,
      `flat (< 5 MB), ${verdict(b.memory.heapGrowthMB < 5)}`,
      'same',
    );
  }
  const failed = results.failures?.length
    ? `\n\nFailed in this run, so missing above: ${results.failures.map((f: { step: string }) => f.step).join('; ')}.`
    : '';
  return `<!-- figures:start -->
Latest run: ${results.date.slice(0, 16).replace('T', ' ')} UTC, ${results.machine.cpus} cores (${results.machine.cpu}), Node ${results.machine.node.replace(/^v/, '')}, 1-minute load average ${results.load.before.toFixed(1)} before and ${results.load.after.toFixed(1)} after, ${Math.round(results.seconds)} s in all. Median (min–max) over the rounds.${failed}

| figure | what it is | latest | the target it answers | measure it again |
|---|---|---|---|---|
${rows.join('\n')}
<!-- figures:end -->`;
}

const file = join(repoRoot, 'BENCHMARKS.md');
const current = await readFile(file, 'utf8').catch(() => '');
const withRun = /<!-- latest-run:start -->[\s\S]*<!-- latest-run:end -->/.test(current)
  ? current.replace(/<!-- latest-run:start -->[\s\S]*<!-- latest-run:end -->/, () => section)
  : `${current}\n${section}\n`;
const FIGURES = /<!-- figures:start -->[\s\S]*<!-- figures:end -->/;
if (!FIGURES.test(withRun))
  throw new Error('BENCHMARKS.md has no <!-- figures:start --> … <!-- figures:end --> section');
const next = withRun.replace(FIGURES, () => figuresSection(results));
await writeFile(file, next);
console.log('BENCHMARKS.md updated from .artifacts/bench/results.json');
