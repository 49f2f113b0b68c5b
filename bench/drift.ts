// 6. Response validation (drift checks) of a 200-key page against a loopback request for that page
// (fetch + JSON parse), measured side by side in the same rounds. Budget: under 2 %.
import { loadDriftChecker } from '../src/drift/index.js';
import { pagingServer } from './lib/servers.js';
import { summarize, type Summary } from './lib/stats.js';

/** The sample size the sampled figure uses (`check(response, { sampleItems })`). */
export const SAMPLE_ITEMS = 10;

export interface DriftResult {
  /** One check of a 200-key page (headers and body, every key), in µs: the fast path (what the client and verify run). */
  checkUs: Summary;
  /** The same with the full validator only (every error collected), as before the fast path. */
  fullCheckUs: Summary;
  fullShareOfRequest: number;
  /** The same with `sampleItems: SAMPLE_ITEMS`, in µs. */
  sampledCheckUs: Summary;
  sampledShareOfRequest: number;
  /** One loopback GET of the same page, body parsed, in µs. */
  loopbackRequestUs: Summary;
  shareOfRequest: number;
  pageBytes: number;
}

export async function measureDrift(runs = 15, checksPerRun = 300, requestsPerRun = 100): Promise<DriftResult> {
  const checker = await loadDriftChecker();
  const server = await pagingServer(1, 200);
  const checks: number[] = [];
  const fullChecks: number[] = [];
  const sampledChecks: number[] = [];
  const requests: number[] = [];
  try {
    const url = `${server.url}/v2/api/pix/keys/list-keys?limit=200`;
    const response = await fetch(url);
    const headers = response.headers;
    const text = await response.text();
    const body = JSON.parse(text) as { data: unknown[] };
    if (body.data.length !== 200) throw new Error('the page must hold 200 keys');
    const observed = {
      operationId: 'listPixKeys',
      status: 200,
      headers,
      contentType: headers.get('content-type'),
      body,
    };
    if (checker.check(observed).length !== 0) throw new Error('the page must conform');
    for (let i = 0; i < 300; i += 1) checker.check(observed);
    for (let i = 0; i < 300; i += 1) checker.check(observed, { fullCheckOnly: true });
    for (let i = 0; i < 100; i += 1) await (await fetch(url)).json();
    for (let run = 0; run < runs; run += 1) {
      let start = process.hrtime.bigint();
      for (let i = 0; i < checksPerRun; i += 1) {
        if (checker.check(observed).length !== 0) throw new Error('the page must conform');
      }
      checks.push(Number(process.hrtime.bigint() - start) / 1000 / checksPerRun);
      start = process.hrtime.bigint();
      for (let i = 0; i < checksPerRun; i += 1) {
        if (checker.check(observed, { fullCheckOnly: true }).length !== 0) throw new Error('the page must conform');
      }
      fullChecks.push(Number(process.hrtime.bigint() - start) / 1000 / checksPerRun);
      start = process.hrtime.bigint();
      for (let i = 0; i < checksPerRun; i += 1) {
        if (checker.check(observed, { sampleItems: SAMPLE_ITEMS }).length !== 0)
          throw new Error('the page must conform');
      }
      sampledChecks.push(Number(process.hrtime.bigint() - start) / 1000 / checksPerRun);
      start = process.hrtime.bigint();
      for (let i = 0; i < requestsPerRun; i += 1) await (await fetch(url)).json();
      requests.push(Number(process.hrtime.bigint() - start) / 1000 / requestsPerRun);
    }
    const checkUs = summarize(checks);
    const loopbackRequestUs = summarize(requests);
    const sampledCheckUs = summarize(sampledChecks);
    const fullCheckUs = summarize(fullChecks);
    return {
      checkUs,
      fullCheckUs,
      fullShareOfRequest: fullCheckUs.median / loopbackRequestUs.median,
      sampledCheckUs,
      loopbackRequestUs,
      shareOfRequest: checkUs.median / loopbackRequestUs.median,
      sampledShareOfRequest: sampledCheckUs.median / loopbackRequestUs.median,
      pageBytes: Buffer.byteLength(text),
    };
  } finally {
    await server.close();
  }
}
