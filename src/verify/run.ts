// `verify`: checks a live service against the contract and returns a report. The command line
// (cli.ts) only parses options, prints and sets the exit status.
import { readFile } from 'node:fs/promises';
import { loadDriftChecker } from '../drift/index.js';
import { isInsecureRemote } from '../loopback.js';
import { runtimeFetch } from '../transport/runtime-fetch.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../version.js';
import { Budget, type BudgetDeps } from './budget.js';
import { assumptions, probeLimitOutOfRange, probeWithoutToken, sendUpdate, walkPages, type Context } from './checks.js';
import { MISSING_CREDENTIALS, troubleOf } from '../cli/connection/credentials.js';
import { insecureHttpMessage, insecureHttpWarnings } from '../cli/connection/base-url.js';
import { outputSecrets, UsageError, type VerifyOptions } from './options.js';
import { checkedWrite } from './write.js';
import { refusedSummary, type CheckResult, type Verdict, type VerifyReport } from './report.js';

export async function runVerify(options: VerifyOptions, deps: Partial<BudgetDeps> = {}): Promise<VerifyReport> {
  // parseVerifyArgs refuses it already; options built by hand get the same rule before anything is sent.
  if (isInsecureRemote(options.baseUrl) && !options.insecureHttp?.includes('--base-url'))
    throw new UsageError(insecureHttpMessage('--base-url'));
  if (options.credentials.kind === 'none') throw new UsageError(MISSING_CREDENTIALS);
  const startedAt = new Date().toISOString();
  const budget = new Budget(
    options.maxRequests,
    options.timeBudgetMs,
    options.requestTimeoutMs,
    {
      fetch: deps.fetch ?? options.credentials.fetch ?? runtimeFetch,
      now: deps.now ?? (() => performance.now()),
      wait: deps.wait,
    },
    options.maxResponseBytes,
  );
  // Read before anything is sent, so a missing file never leaves a run half done.
  // The update goes through the client's pre-flight rule: one the contract refuses sends nothing at all.
  const write = options.write ? checkedWrite(options.write, await readFile(options.write.bodyFile, 'utf8')) : undefined;
  const ctx: Context = { options, budget, checker: await loadDriftChecker(), seen: [] };
  const checks: CheckResult[] = [
    ...(await walkPages(ctx)),
    await probeWithoutToken(ctx),
    await probeLimitOutOfRange(ctx),
  ];
  if (write !== undefined) checks.push(await sendUpdate(ctx, write));
  checks.push(...assumptions(ctx));
  const counts: Record<Verdict, number> = { ok: 0, drift: 0, held: 0, 'not-seen': 0, error: 0 };
  for (const c of checks) counts[c.verdict] += 1;
  const warnings = insecureHttpWarnings(options);
  return {
    tool: `${PACKAGE_NAME} verify ${PACKAGE_VERSION}`,
    contractVersion: PACKAGE_VERSION,
    baseUrl: outputSecrets(options).url(options.baseUrl),
    credentials: options.credentials.kind,
    // A token endpoint that only failed refused nothing: the run is incomplete, not refused.
    ...(ctx.refused && troubleOf(ctx.refused) !== 'unavailable'
      ? { credentialsRefused: refusedSummary(options.credentials, ctx.refused) }
      : {}),
    ...(ctx.writeRefused ? { writeRefused: ctx.writeRefused } : {}),
    startedAt,
    readOnly: !options.write,
    ...(warnings.length ? { warnings } : {}),
    budgets: {
      requests: { used: budget.requestsUsed, limit: options.maxRequests, retriesAfterWait: budget.retriesAfterWait },
      timeMs: { used: Math.round(budget.elapsedMs), limit: options.timeBudgetMs },
    },
    checks,
    drifted: counts.drift > 0,
    counts,
  };
}
