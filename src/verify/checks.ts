// The checks of a verify run, in order: walk list-keys pages, probe the documented errors, and
// (only when asked) send one update. Each returns rows of the report; none throws on drift.
import { type Page, walkCursorSteps } from '../client/pagination.js';
import { ResponseTooLarge, shownBytes } from '../body-limit.js';
import { buildRequest, type RequestInput, type RequestName } from '../validation/request.js';
import type { DriftChecker, DriftProblem } from '../drift/index.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../version.js';
import { BudgetExhausted, NoAnswer, type Budget, type Exchange, type UnfollowedRedirect } from './budget.js';
import {
  inFlagTerms,
  refusalMessage,
  refusalSeen,
  tokenEndpointRefusal,
  troubleOf,
  type CredentialRefusal,
} from '../cli/connection/credentials.js';
import { outputSecrets, type VerifyOptions } from './options.js';
import type { CheckResult, WriteRefusal } from './report.js';
import { type CheckedWrite, refusalText } from './write.js';

const USER_AGENT = `${PACKAGE_NAME}-verify/${PACKAGE_VERSION}`;
const RATE_LIMIT_HEADERS = [
  'ratelimit',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'ratelimit-policy',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
];

export interface Context {
  options: VerifyOptions;
  budget: Budget;
  checker: DriftChecker;
  /** Every exchange of the run, for the assumption rows. */
  seen: Exchange[];
  /**
   * Set when the first page got no accepted token (refused, or the token endpoint failed): the checks
   * that need one are not run. Only a refusal makes the run CREDENTIALS REFUSED (run.ts).
   */
  refused?: CredentialRefusal;
  /** Set when the service refused the write (--allow-writes): the run could not verify it. */
  writeRefused?: WriteRefusal;
}

/**
 * The request of an operation from the one request builder (src/validation/request.ts): verify's own
 * User-Agent and Accept, and the token when `withToken`. A probe that must break the contract says so
 * through `outOfContractQuery`.
 */
async function request(
  ctx: Context,
  name: RequestName,
  withToken: boolean,
  input: Omit<RequestInput, 'baseUrl' | 'headers' | 'secrets'> = {},
): Promise<[string, { method: string; headers: Record<string, string>; body?: string }]> {
  const headers: Record<string, string> = {
    'user-agent': USER_AGENT,
    accept: 'application/json, application/problem+json',
  };
  const authorization = withToken ? await ctx.options.credentials.authorization() : undefined;
  if (authorization) headers.authorization = authorization;
  const built = buildRequest(name, {
    ...input,
    baseUrl: ctx.options.baseUrl,
    headers,
    secrets: outputSecrets(ctx.options),
  });
  return [
    built.url,
    { method: built.method, headers: built.headers, ...(built.body === undefined ? {} : { body: built.body }) },
  ];
}

const seenOf = (x: Exchange): string => `${x.status} ${x.contentType?.split(';')[0] ?? '(no content type)'}`;

function row(check: string, expected: string, x: Exchange, problems: DriftProblem[], extra = ''): CheckResult {
  return {
    check,
    expected,
    seen: `${seenOf(x)}${extra}${problems.length ? `, ${problems.length} problem(s)` : ''}`,
    verdict: problems.length ? 'drift' : 'ok',
    problems,
  };
}

const REDIRECT_RULES: Record<UnfollowedRedirect['reason'], string> = {
  'other-origin': 'must not redirect to another origin',
  'not-a-read': 'must not redirect a write (it is never sent again)',
  'too-many': 'must not redirect more than 5 times',
  'no-location': 'must not redirect without a Location that is a URL',
};

/**
 * A redirect the policy did not follow is drift on its own row: the contract documents no 3xx, and
 * what another origin would answer is not the service's answer, so nothing is sent there or scored.
 */
function redirectRow(
  ctx: Context,
  check: string,
  expected: string,
  x: Exchange,
  redirect: UnfollowedRedirect,
): CheckResult {
  ctx.seen.push(x);
  const where = redirect.targetOrigin === undefined ? '' : ` to ${redirect.targetOrigin}`;
  return {
    check,
    expected,
    seen: `${x.status} redirect${where}, not followed`,
    verdict: 'drift',
    problems: [{ part: 'header', pointer: '/location', rule: REDIRECT_RULES[redirect.reason] }],
  };
}

// The usual reasons nothing answered, in words that say where to look; other codes are shown as they are.
const NO_ANSWER_WORDS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'nothing listens there; is the service running, and is --base-url right?',
  ENOTFOUND: 'no such host; check --base-url',
};

/** Why nothing answered, from the transport's reading of the failure (its code, its cause chain), `tls` options named by their flags. */
function noAnswer({ failure, limitedBy }: NoAnswer): string {
  if (failure.kind === 'timeout') return `no answer within ${failure.timeoutMs} ms (${limitedBy})`;
  // 'aborted' needs a caller's signal, and verify gives the transport none: shown by its kind all the same.
  if (failure.kind !== 'network') return `no answer (${failure.kind})`;
  const { code } = failure;
  return code !== undefined && Object.hasOwn(NO_ANSWER_WORDS, code)
    ? `no answer (${code}: ${NO_ANSWER_WORDS[code]})`
    : `no answer (${inFlagTerms(failure.message)})`;
}

function failed(check: string, expected: string, error: unknown): CheckResult {
  // Verify's own bounds (a budget, an answer over the byte limit) say themselves: the check could not run.
  const why =
    error instanceof BudgetExhausted
      ? error.message
      : error instanceof ResponseTooLarge
        ? // The transport's limit, named by verify's own option.
          `the answer (${error.status}) is larger than --max-response-bytes (${shownBytes(error.limitBytes)}); reading stopped there`
        : error instanceof NoAnswer
          ? noAnswer(error)
          : `no answer (${(error as Error).name}: ${(error as Error).message})`;
  return { check, expected, seen: why, verdict: 'error', problems: [] };
}

function inspect(ctx: Context, operationId: string, x: Exchange): DriftProblem[] {
  ctx.seen.push(x);
  return ctx.checker.check({
    operationId,
    status: x.status,
    headers: x.headers,
    contentType: x.contentType,
    body: x.body,
    bodyUnparsable: x.bodyUnparsable,
  });
}

/** The first row of a run whose credentials were refused: not drift, and nothing else to blame. */
function refusedRow(ctx: Context, refusal: CredentialRefusal): CheckResult {
  ctx.refused = refusal;
  const kind = ctx.options.credentials.kind;
  return {
    check: 'credentials',
    expected: `${kind === 'token' ? 'a token' : kind} the service accepts`,
    seen: refusalSeen(refusal),
    verdict: 'error',
    problems: [],
  };
}

/** The row of a check that needs accepted credentials, when they were refused: not run, nothing sent. */
export function notRun(ctx: Context, check: string, expected: string): CheckResult | undefined {
  if (!ctx.refused) return undefined;
  return { check, expected, seen: `not run: ${refusalSeen(ctx.refused)}`, verdict: 'error', problems: [] };
}

/**
 * Walks up to `pages` pages of list-keys through the package's one page walker (its cursor rules:
 * the contract's cursor, no repeated cursor, a bounded run of empty pages); every page is checked. A
 * 401 or 403 to the first page (or the token endpoint refusing the client credentials) is the
 * credentials' failure, not the list's: it is reported as such and the walk stops.
 */
export async function walkPages(ctx: Context): Promise<CheckResult[]> {
  const rows: CheckResult[] = [];
  let reachedEnd = false;
  let pagesRead = 0;
  // Why the walk stopped before reading `pages` pages, if it did.
  let stopped: string | undefined;
  let page = 0;
  // The last page of the walk: what a page that ends it (refused, drifted, not followed) hands the walker.
  const END = { data: [], cursor: { next: null } };
  const fetchPage = async (query: { cursor?: string }): Promise<Page<unknown>> => {
    page += 1;
    const check = `list-keys page ${page}`;
    const expected = '200 application/json PixKeyList';
    let x: Exchange;
    try {
      x = await ctx.budget.send(
        ...(await request(ctx, 'listPixKeys', true, { query: { limit: ctx.options.limit, cursor: query.cursor } })),
      );
    } catch (error) {
      const refusal = page === 1 ? tokenEndpointRefusal(error) : undefined;
      // A token endpoint only unavailable (5xx, 429, no answer) refused nothing: the page could not be
      // checked, said in the words every command uses; the checks that need a token are not run either.
      const unavailable = refusal !== undefined && troubleOf(refusal) === 'unavailable';
      if (unavailable) ctx.refused = refusal;
      const result = !refusal
        ? failed(check, expected, error)
        : unavailable
          ? {
              check,
              expected,
              seen: refusalMessage(ctx.options.credentials, refusal),
              verdict: 'error' as const,
              problems: [],
            }
          : refusedRow(ctx, refusal);
      rows.push(result);
      stopped =
        refusal && !unavailable
          ? refusalSeen(refusal)
          : `page ${page}: ${refusal ? refusalSeen(refusal) : result.seen}`;
      return END;
    }
    if (x.redirect) {
      rows.push(redirectRow(ctx, check, expected, x, x.redirect));
      stopped = `page ${page} was a redirect not followed`;
      return END;
    }
    if (page === 1 && (x.status === 401 || x.status === 403)) {
      // Still seen (its X-Request-Id counts), never scored: the token probe checks a 401's shape.
      ctx.seen.push(x);
      rows.push(refusedRow(ctx, { by: 'service', status: x.status }));
      stopped = `the service refused the credentials (${x.status})`;
      return END;
    }
    const problems = inspect(ctx, 'listPixKeys', x);
    const body = x.body as { data?: unknown } | undefined;
    const count = Array.isArray(body?.data) ? `, ${body.data.length} keys` : '';
    if (x.status !== 200) {
      // A documented refusal (401 for a token that expired, 429 whose wait did not fit the budget,
      // 503) is not drift, but the walk cannot go on: the run is incomplete, not failed.
      if (problems.length) rows.push(row(check, expected, x, problems));
      else
        rows.push({
          check,
          expected,
          seen: `${seenOf(x)}: a documented refusal, the walk stops${x.status === 429 || x.status === 503 ? ' (Retry-After longer than the budget allows)' : ''}`,
          verdict: 'error',
          problems: [],
        });
      stopped = `page ${page} answered ${x.status}`;
      return END;
    }
    rows.push(row(check, expected, x, problems, count));
    pagesRead += 1;
    if (problems.length) {
      stopped = `page ${page} drifted`;
      return END;
    }
    // The page conforms, so cursor.next is there: a string, or null on the last page.
    const list = x.body as { data: unknown[]; cursor: { next: string | null } };
    if (list.cursor.next === null) reachedEnd = true;
    return list;
  };
  for await (const step of walkCursorSteps(fetchPage, { maxPages: ctx.options.pages })) {
    if (!('breach' in step)) continue;
    const { breach } = step;
    const where = breach.pointer === '/data' ? 'data' : 'cursor.next';
    rows.push({
      check: `cursor after page ${page}`,
      expected: breach.contract ? 'a cursor of the contract not seen before, or null' : "keys within the walk's bound",
      seen: `${where} ${breach.rule}`,
      verdict: breach.contract ? 'drift' : 'error',
      problems: breach.contract ? [{ part: 'body', pointer: breach.pointer, rule: breach.rule }] : [],
    });
    stopped = `page ${page}: ${where} ${breach.rule}`;
  }
  rows.push({
    check: 'cursor.next null on the last page',
    expected: 'null once the list ends (x-assumption)',
    // "did not end within N pages" only when N pages were read; otherwise how many, and why not more.
    seen: reachedEnd
      ? 'null on the last page walked'
      : stopped === undefined
        ? `the list did not end within ${pagesRead} page(s)`
        : `${pagesRead} page(s) read; the walk stopped: ${stopped}`,
    verdict: reachedEnd ? 'held' : 'not-seen',
    problems: [],
  });
  return rows;
}

/** A request without a token must be refused with documented problem details. */
export async function probeWithoutToken(ctx: Context): Promise<CheckResult> {
  const check = 'list-keys without a token';
  const expected = '401 application/problem+json';
  try {
    const x = await ctx.budget.send(...(await request(ctx, 'listPixKeys', false)));
    if (x.redirect) return redirectRow(ctx, check, expected, x, x.redirect);
    const problems = inspect(ctx, 'listPixKeys', x);
    if (x.status !== 401 && !problems.some((p) => p.part === 'status'))
      problems.unshift({ part: 'status', pointer: '', rule: 'must be 401 for a request without a token' });
    return row(check, expected, x, problems);
  } catch (error) {
    return failed(check, expected, error);
  }
}

/** A limit above the contract's bound must be refused with documented problem details. */
export async function probeLimitOutOfRange(ctx: Context): Promise<CheckResult> {
  const check = 'list-keys with limit=201';
  const expected = '422 or 400 application/problem+json';
  // With refused credentials the answer would be that refusal again, not the limit's.
  const skipped = notRun(ctx, check, expected);
  if (skipped) return skipped;
  try {
    // Out of the contract on purpose: the limit is one past its maximum.
    const x = await ctx.budget.send(
      ...(await request(ctx, 'listPixKeys', true, { outOfContractQuery: { limit: '201' } })),
    );
    if (x.redirect) return redirectRow(ctx, check, expected, x, x.redirect);
    const problems = inspect(ctx, 'listPixKeys', x);
    if (x.status !== 422 && x.status !== 400 && !problems.some((p) => p.part === 'status'))
      problems.unshift({ part: 'status', pointer: '', rule: 'must be 422 or 400 for a limit out of range' });
    return row(check, expected, x, problems);
  } catch (error) {
    return failed(check, expected, error);
  }
}

/**
 * One PUT, sent once (never retried), only with --allow-writes; the update was checked by the client's
 * pre-flight rule already (write.ts). A refusal (any answer but 2xx) is never OK: the write could not
 * be verified, said with its status and problem (drift too, when the refusal breaks the contract).
 */
export async function sendUpdate(ctx: Context, write: CheckedWrite): Promise<CheckResult> {
  const check = 'update natural person (write)';
  const expected = '200 application/json UpdateResult';
  const skipped = notRun(ctx, check, expected);
  if (skipped) return skipped;
  try {
    const x = await ctx.budget.send(
      ...(await request(ctx, 'updateNaturalPerson', true, { query: write.query, body: write.body })),
    );
    if (x.redirect) return redirectRow(ctx, check, expected, x, x.redirect);
    const problems = inspect(ctx, 'updateNaturalPerson', x);
    if (x.status >= 200 && x.status < 300) return row(check, expected, x, problems);
    const problem = refusalText(x.body, outputSecrets(ctx.options));
    ctx.writeRefused = { status: x.status, ...(problem === undefined ? {} : { problem }) };
    return {
      check,
      expected,
      seen: `${seenOf(x)}: refused${problem === undefined ? '' : ` (${problem})`}, the write could not be verified${problems.length ? `, ${problems.length} problem(s)` : ''}`,
      verdict: problems.length ? 'drift' : 'error',
      problems,
    };
  } catch (error) {
    return failed(check, expected, error);
  }
}

/** Assumptions read off every response of the run; never drift. */
export function assumptions(ctx: Context): CheckResult[] {
  const total = ctx.seen.length;
  const withId = ctx.seen.filter((x) => x.headers.has('x-request-id')).length;
  const withRate = ctx.seen.filter((x) => RATE_LIMIT_HEADERS.some((h) => x.headers.has(h))).length;
  return [
    {
      check: 'X-Request-Id on responses',
      expected: 'present (optional, x-assumption)',
      seen: `on ${withId} of ${total} responses`,
      verdict: total > 0 && withId === total ? 'held' : 'not-seen',
      problems: [],
    },
    {
      check: 'rate-limit headers',
      expected: 'RateLimit-* or X-RateLimit-* (not in the contract)',
      seen: `on ${withRate} of ${total} responses`,
      verdict: withRate > 0 ? 'held' : 'not-seen',
      problems: [],
    },
  ];
}
