// update-many names the lines it did not do on the terminal, after the summary: the first few by line
// number with the status and rule of each (never a CPF or an account), then how many more and where
// they are all listed. In process, against a sandbox on 127.0.0.1:0.
import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FailedLines, failureText, SHOWN_LINES, statusText } from '../../../src/cli/batch/failed-lines.js';
import {
  BaasApiError,
  BaasAuthError,
  BaasNetworkError,
  BaasResponseError,
  BaasTimeoutError,
} from '../../../src/errors.js';
import { COMMANDS } from '../../../src/cli/commands.js';
import { main } from '../../../src/cli/main.js';
import { createSandbox } from '../../../src/sandbox/index.js';
import type { RunningSandbox } from '../../../src/sandbox/sandbox.js';
import { capture } from '../in-process.js';
import { tempDir, updateLine } from './harness.js';
import { redactMessage, Secrets } from '../../../src/redact.js';

/** An error's context where no secret is known: every rule of the masking still applies. */
const NONE = { secrets: Secrets.none };

const sandbox = createSandbox({ clients: 1, accountsPerClient: 2, keysPerAccount: 1 });
const [known] = sandbox.clients[0]!.accounts;
// An account the sandbox does not have (404), and a CPF whose check digits do not match (invalid, never sent).
const unknown = { account: '999999999999', documentNumber: known!.documentNumber };
const badCpf = { account: known!.account, documentNumber: '12345678900' };
let server: RunningSandbox;
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  server = await sandbox.listen({ port: 0 });
  dir = await tempDir();
});
afterAll(async () => {
  await server?.stop();
  await dir?.remove();
});

/** update-many over `lines` (JSONL); the exit status, the summary (stdout) and standard error's lines. */
async function updateMany(lines: string[], ...flags: string[]) {
  const input = dir.file(`in-${Math.random().toString(36).slice(2)}.jsonl`);
  await writeFile(input, `${lines.join('\n')}\n`);
  const io = capture();
  const code = await main(['update-many', '--input', input, '--base-url', server.url, ...flags], COMMANDS, {
    ...io,
    env: { BAAS_TOKEN: sandbox.clients[0]!.token },
  });
  return { code, stdout: io.stdout, stderr: io.stderr };
}

/** The list after the summary: its heading and the lines under it. */
const listOf = (stderr: string[]) => stderr.slice(stderr.findIndex((line) => / not done/.test(line)));

describe('update-many: the lines not done, on the terminal', () => {
  // Lines 1-12: every third a 404, every third an invalid CPF, the rest done; line 13 is not JSON.
  const lines = Array.from({ length: 12 }, (_, i) =>
    updateLine([unknown, badCpf, known!][i % 3]!, { socialName: 'Ana' }),
  ).concat('{not json');
  const notDone = [1, 2, 4, 5, 7, 8, 10, 11, 13];

  it('more than fit: the first by line number with status or rule, then how many more and the report', async () => {
    const report = dir.file('report.json');
    const { code, stderr } = await updateMany(lines, '--report', report);
    expect(code).toBe(1);
    const list = listOf(stderr);
    expect(list[0]).toMatch(new RegExp(`^${notDone.length} lines .*${SHOWN_LINES}`));
    const listed = list.slice(1, -1);
    expect(listed.map((line) => Number(line.match(/^ {2}line ([0-9]+): /)?.[1]))).toEqual(
      notDone.slice(0, SHOWN_LINES),
    );
    // Each says why: the status and the provider's title, or the rule the line broke.
    expect(listed[0]).toMatch(/^ {2}line 1: HTTP 404 Not Found\b/);
    expect(listed[1]).toMatch(/^ {2}line 2: invalid: documentNumber: /);
    expect(list.at(-1)).toContain(`${notDone.length - SHOWN_LINES} more`);
    expect(list.at(-1)).toContain(report);
    // Never a value of a line: no CPF, no account.
    for (const value of [known!.documentNumber, known!.account, unknown.account, badCpf.documentNumber])
      expect(list.join('\n')).not.toContain(value);
    // The report has every one of them.
    const written = JSON.parse(await readFile(report, 'utf8')) as { lines: { line: number; outcome: string }[] };
    expect(
      written.lines
        .filter((line) => line.outcome !== 'ok')
        .map((line) => line.line)
        .sort((a, b) => a - b),
    ).toEqual(notDone);
  });

  it('a count of more of a thousand or more is written as every other count is (1,092, never 1092)', async () => {
    const many = Array.from({ length: 1100 }, () => updateLine(badCpf, { socialName: 'Ana' }));
    const { stderr } = await updateMany(many);
    expect(listOf(stderr).at(-1)).toContain(`… and ${(1100 - SHOWN_LINES).toLocaleString('en-US')} more;`);
  });

  it('without --report: the "more" line says to run again with --report', async () => {
    const { stderr } = await updateMany(lines);
    expect(listOf(stderr).at(-1)).toContain('--report FILE');
  });

  it('few: every one listed, no "more" line; none at all when every line is done', async () => {
    const few = await updateMany([lines[0]!, lines[2]!, lines[1]!]);
    expect(few.code).toBe(1);
    expect(listOf(few.stderr)).toHaveLength(3);
    expect(
      listOf(few.stderr)
        .slice(1)
        .map((line) => line.match(/line ([0-9]+)/)?.[1]),
    ).toEqual(['1', '3']);
    const done = await updateMany([lines[2]!]);
    expect(done.code).toBe(0);
    expect(done.stderr.some((line) => / not done/.test(line))).toBe(false);
  });
});

describe('FailedLines', () => {
  it('keeps the lowest line numbers whatever order they finish in, masked', () => {
    const failed = new FailedLines(() => Secrets.of(['s3cr3t']));
    for (const line of [40, 3, 17, 9, 2, 33, 11, 5, 8, 1, 60]) failed.add(line, `422 s3cr3t for 52998224725`);
    const list = failed.lines(undefined);
    expect(list.slice(1, -1).map((line) => Number(line.match(/line ([0-9]+)/)?.[1]))).toEqual([
      1, 2, 3, 5, 8, 9, 11, 17,
    ]);
    expect(list.join('\n')).not.toMatch(/s3cr3t|52998224725/);
    expect(list.at(-1)).toContain('3 more');
  });

  it('all shown: the heading gives the count alone and nothing follows the list; nothing at all for none', () => {
    const failed = new FailedLines(() => Secrets.none);
    expect(failed.lines('report.json')).toEqual([]);
    for (const line of [7, 2, 5]) failed.add(line, 'HTTP 404 Not Found');
    const list = failed.lines('report.json');
    expect(list[0]).toMatch(/^3 lines not done:$/);
    expect(list.slice(1)).toEqual([
      '  line 2: HTTP 404 Not Found',
      '  line 5: HTTP 404 Not Found',
      '  line 7: HTTP 404 Not Found',
    ]);
  });

  it('cut: the heading gives the count and how many are shown', () => {
    const failed = new FailedLines(() => Secrets.none);
    for (let line = 1; line <= SHOWN_LINES + 1; line++) failed.add(line, 'invalid');
    expect(failed.lines(undefined)[0]!.match(/[0-9]+/g)).toEqual([String(SHOWN_LINES + 1), String(SHOWN_LINES)]);
  });
});

describe('failureText', () => {
  it("the status and the provider's first violation or title, masked and cut; the kind and code without an answer", () => {
    const violations = [
      { property: '/address/state', reason: 'must be one of the 27 UF codes, not 52998224725' },
      { property: '/email', reason: 'x' },
    ];
    const text = failureText(
      new BaasApiError({ status: 422, problem: { type: 'about:blank', title: 'Invalid', violations } }, NONE),
      Secrets.none,
    );
    expect(text).toMatch(/^HTTP 422 Unprocessable Entity: \/address\/state: .*\(and 1 more\)$/);
    expect(text).not.toContain('52998224725');
    expect(
      failureText(
        new BaasApiError({ status: 404, problem: { type: 'about:blank', title: 'Customer not found' } }, NONE),
        Secrets.none,
      ),
    ).toBe('HTTP 404 Not Found: Customer not found');
    expect(
      failureText(
        new BaasApiError({ status: 409, problem: { type: 'about:blank', title: 'z'.repeat(5000) } }, NONE),
        Secrets.none,
      ).length,
    ).toBeLessThan(200);
    expect(failureText(new BaasNetworkError('ECONNREFUSED', NONE), Secrets.none)).toBe('network (ECONNREFUSED)');
    expect(failureText(new BaasTimeoutError(5000, NONE), Secrets.none)).toContain('5000 ms');
  });

  const problem = (extra: object) => ({ type: 'about:blank', title: 'Invalid', ...extra });

  it('one violation: no count of more; a violation without a text property or reason: the title instead', () => {
    expect(
      failureText(
        new BaasApiError(
          { status: 422, problem: problem({ violations: [{ property: '/email', reason: 'x' }] }) },
          NONE,
        ),
        Secrets.none,
      ),
    ).toBe('HTTP 422 Unprocessable Entity: /email: x');
    for (const first of [
      { reason: 'x' },
      { property: '/email' },
      { property: 7, reason: 'x' },
      { property: '/email', reason: {} },
    ])
      expect(
        failureText(new BaasApiError({ status: 422, problem: problem({ violations: [first] }) }, NONE), Secrets.none),
      ).toBe('HTTP 422 Unprocessable Entity: Invalid');
  });

  it('an answer without problem details, or with neither violations nor a title: the status alone', () => {
    expect(failureText(new BaasApiError({ status: 502 }, NONE), Secrets.none)).toBe('HTTP 502 Bad Gateway');
    expect(
      failureText(
        new BaasApiError({ status: 500, problem: { type: 'about:blank', title: 42 } as never }, NONE),
        Secrets.none,
      ),
    ).toBe('HTTP 500 Internal Server Error');
  });

  it('a network failure without a code: the kind alone', () => {
    expect(failureText(new BaasNetworkError(undefined, NONE), Secrets.none)).toBe('network');
  });

  it("another error of the client: its status and kind, or its kind; an abort; anything else is 'error'", () => {
    expect(failureText(new BaasResponseError('not JSON', { status: 200 }, NONE), Secrets.none)).toBe(
      'HTTP 200 OK (response)',
    );
    expect(failureText(new BaasAuthError('no token', NONE), Secrets.none)).toBe('auth');
    expect(failureText(new DOMException('stopped', 'AbortError'), Secrets.none)).toBe('aborted');
    expect(failureText(new Error('boom'), Secrets.none)).toBe('error');
    expect(failureText('boom', Secrets.none)).toBe('error');
  });
});

// Our own numbers (line, status, count) and a provider's digits never join into the eleven digits of a
// CPF: `line 1: 422 1234567` read as one would be masked whole, line number and status included. Each
// line goes through the terminal's masking (redactMessage) as update-many's standard error does.
describe("the list never joins our numbers with the provider's digits", () => {
  const onTerminal = (lines: string[]) => lines.map((line) => redactMessage(line));
  const api = (status: number, title: string, violations?: { property: string; reason: string }[]) =>
    new BaasApiError({ status, problem: { type: 'about:blank', title, ...(violations ? { violations } : {}) } }, NONE);

  it.each([
    ['a title of digits', api(422, '1234567')],
    ['a title of digits and separators', api(422, '12.345-67 8')],
    ['a violation of digits', api(422, 'Invalid', [{ property: '/7', reason: '123456' }])],
    ['a status without a name', api(499, '12345')],
  ])('%s: the line number, the status and the provider digits are shown as they are', (_, error) => {
    for (const line of [1, 12, 1234, 12_345_678]) {
      const failed = new FailedLines(() => Secrets.none);
      failed.add(line, failureText(error, Secrets.none));
      const [, shown] = onTerminal(failed.lines(undefined));
      expect(shown).toMatch(new RegExp(`^ {2}line ${line}: HTTP ${error.status} [A-Z]`));
      expect(shown).not.toContain('*');
      expect(shown).toContain(error.problem!.violations ? '123456' : error.problem!.title);
    }
  });

  it('a CPF in the provider text is still masked, and the line number and status around it are not', () => {
    const failed = new FailedLines(() => Secrets.none);
    failed.add(12, failureText(api(422, 'CPF 52998224725 is taken'), Secrets.none));
    const [, shown] = onTerminal(failed.lines(undefined));
    expect(shown).toBe('  line 12: HTTP 422 Unprocessable Entity: CPF *********25 is taken');
  });

  it('a title that only repeats the status name is not said twice; a name for every status by its class', () => {
    expect(failureText(api(404, ' not found '), Secrets.none)).toBe('HTTP 404 Not Found');
    expect(statusText(499)).toBe('HTTP 499 Client Error');
    expect(statusText(599)).toBe('HTTP 599 Server Error');
    expect(statusText(399)).toBe('HTTP 399 Redirection');
    expect(statusText(299)).toBe('HTTP 299 Status');
  });

  it('the count of more violations stands outside the cut provider text', () => {
    const violations = [{ property: '/a', reason: 'z'.repeat(500) }, ...Array(3).fill({ property: '/b', reason: 'y' })];
    expect(failureText(api(422, 'Invalid', violations), Secrets.none)).toMatch(/… \(and 3 more\)$|\(and 3 more\)$/);
  });
});
