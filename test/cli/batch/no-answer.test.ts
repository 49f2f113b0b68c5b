// update-many against a service that answers nothing stops sending after a streak of lines without
// an answer, instead of working through the whole input; it says where it got no answer and what to
// check, last. The "service" is a port of 127.0.0.1 that nothing listens on (ECONNREFUSED at once).
import { createServer } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_ANSWER_LINES, NoAnswerStreak } from '../../../src/cli/batch/no-answer.js';
import { COMMANDS } from '../../../src/cli/commands.js';
import { main } from '../../../src/cli/main.js';
import { BaasApiError, BaasNetworkError, BaasTimeoutError } from '../../../src/errors.js';
import { Secrets } from '../../../src/redact.js';
import { createSandbox } from '../../../src/sandbox/index.js';
import { capture } from '../in-process.js';
import { tempDir, updateLine } from './harness.js';

const [account] = createSandbox({ clients: 1, accountsPerClient: 1, keysPerAccount: 1 }).clients[0]!.accounts;
let url: string;
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  // A port the system just gave out and took back: closed, so every connection is refused.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(probe.address() as { port: number }).port}`;
  await new Promise((resolve) => probe.close(resolve));
  dir = await tempDir();
});
afterAll(() => dir?.remove());

describe('update-many against a service that never answers', () => {
  it('stops sending after a streak of lines without an answer, says so last, and exits 1', async () => {
    const lines = 200;
    const input = dir.file('in.jsonl');
    const report = dir.file('report.json');
    await writeFile(
      input,
      `${Array.from({ length: lines }, () => updateLine(account!, { socialName: 'Ana' })).join('\n')}\n`,
    );
    const io = capture();
    const code = await main(
      [
        'update-many',
        '--input',
        input,
        '--base-url',
        url,
        '--allow-insecure-http',
        '--report',
        report,
        '--concurrency',
        '4',
      ],
      COMMANDS,
      { ...io, env: { BAAS_TOKEN: 'sbx_test_token' } },
    );
    expect(code).toBe(1);
    expect(io.stderr.at(-1)).toMatch(
      new RegExp(`^update-many: no answer from ${url.replace(/[.]/g, '\\.')}.*--base-url`),
    );
    // The streak, and at most the lines already in flight when it ended: nowhere near the 200.
    const written = JSON.parse(await readFile(report, 'utf8')) as { lines: { outcome: string }[] };
    const failed = written.lines.filter((line) => line.outcome === 'failed').length;
    expect(failed).toBeGreaterThanOrEqual(NO_ANSWER_LINES);
    expect(failed).toBeLessThanOrEqual(2 * NO_ANSWER_LINES);
    expect(written.lines.filter((line) => line.outcome === 'ok')).toEqual([]);
    expect(io.stderr.at(-1)).toContain('(ECONNREFUSED)');
    expect(io.stderr.join('\n')).not.toContain(account!.documentNumber);
  });
});

describe('NoAnswerStreak', () => {
  const context = {
    operation: 'updateNaturalPerson' as const,
    method: 'PUT',
    url: 'https://api.test/x',
    attempts: 3,
    secrets: Secrets.none,
  };
  const network = new BaasNetworkError('ECONNREFUSED', context);
  const answered = new BaasApiError({ status: 404 }, context);

  it('stops after NO_ANSWER_LINES lines in a row without an answer, network failures and timeouts alike', () => {
    const streak = new NoAnswerStreak();
    for (let i = 1; i < NO_ANSWER_LINES; i++)
      expect(streak.add(i % 2 ? network : new BaasTimeoutError(100, context))).toBe(false);
    expect(streak.add(network)).toBe(true);
    expect(streak.message('https://api.test')).toMatch(
      /^no answer from https:\/\/api\.test \(ECONNREFUSED\) for 10 lines/,
    );
  });

  it('starts again at any answer: a line done, or one the service refused with a status', () => {
    const streak = new NoAnswerStreak();
    for (const error of [answered, undefined]) {
      for (let i = 1; i < NO_ANSWER_LINES; i++) streak.add(network);
      expect(streak.add(error)).toBe(false);
    }
    for (let i = 1; i < NO_ANSWER_LINES; i++) expect(streak.add(network)).toBe(false);
    expect(streak.add(network)).toBe(true);
  });

  /** The message of a streak ended by `last`. */
  const stoppedBy = (last: unknown) => {
    const streak = new NoAnswerStreak();
    for (let i = 1; i < NO_ANSWER_LINES; i++) streak.add(network);
    streak.add(last);
    return streak.message('https://api.test');
  };

  it("names the last failure's cause: the system's code, the timeout, or nothing when there is neither", () => {
    expect(stoppedBy(new BaasTimeoutError(1234, context))).toContain('(no complete answer within 1234 ms)');
    const withCode = stoppedBy(network);
    expect(stoppedBy(new BaasNetworkError(undefined, context))).toBe(withCode.replace(' (ECONNREFUSED)', ''));
    expect(withCode).toContain(' (ECONNREFUSED)');
  });
});
