// A batch command run in process writes its progress where its caller says (the context's `progress`),
// never to the process's own standard error: `npm test` printed a stray `progress: 9/200 done, 9 failed`
// while every test passed (issue 36), from an in-process update-many that ran past 5 s.
import { writeFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { PLAIN_EVERY_MS } from '../../../src/cli/batch/progress.js';
import { COMMANDS } from '../../../src/cli/commands.js';
import { main } from '../../../src/cli/main.js';
import { createSandbox } from '../../../src/sandbox/index.js';
import { listen } from '../../../src/sandbox/listen.js';
import { capture, until } from '../in-process.js';
import { tempDir, updateLine } from './harness.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(() => dir?.remove());
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

it("update-many's progress line goes to the context's progress, none to process.stderr", async () => {
  const sandbox = createSandbox({ clients: 1, accountsPerClient: 2, keysPerAccount: 1 });
  const [client] = sandbox.clients;
  const input = dir.file('in.jsonl');
  await writeFile(
    input,
    `${client!.accounts.map((account) => updateLine(account, { socialName: 'Ana' })).join('\n')}\n`,
  );
  // The sandbox's answers wait until the test has moved the progress clock past one interval.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked = 0;
  const running = await listen(
    async (request) => {
      asked += 1;
      await held;
      return sandbox.fetch(request);
    },
    { port: 0 },
  );
  try {
    const stderr = vi.spyOn(process.stderr, 'write');
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
    const io = capture();
    const code = main(
      ['update-many', '--input', input, '--base-url', running.url, '--allow-insecure-http', '--concurrency', '1'],
      COMMANDS,
      { ...io, env: { BAAS_TOKEN: client!.token } },
    );
    let settled = false;
    void code.finally(() => (settled = true));
    // A request in flight: the run, and its progress interval, have started.
    await until(() => asked > 0 || settled);
    vi.advanceTimersByTime(PLAIN_EVERY_MS);
    release();
    expect(await code, io.stderr.join('\n')).toBe(0);
    expect(io.progressWritten).toHaveLength(1);
    expect(io.progressWritten[0]).toMatch(/^progress: 0\/2 done, 0 failed/);
    expect(stderr.mock.calls.filter(([text]) => String(text).includes('progress:'))).toEqual([]);
  } finally {
    release();
    await running.stop();
  }
});
