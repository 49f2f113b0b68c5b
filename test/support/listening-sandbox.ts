// A sandbox listening on 127.0.0.1 (a free port) for the tests of one describe block (or of the file,
// called at its top): started before them, stopped after them, every line of its request log kept.
import { afterAll, beforeAll } from 'vitest';
import { createSandbox, type SandboxOptions } from '../../src/sandbox/index.js';

/** Call inside a describe block; `url` is set once the sandbox listens (read it inside the tests). */
export function listeningSandbox(seed: string, options: Omit<SandboxOptions, 'seed'> = {}) {
  const sandbox = createSandbox({ ...options, seed });
  const client = sandbox.clients[0]!;
  const listening = { sandbox, client, customer: client.accounts[0]!, lines: [] as string[], url: '' };
  let running: Awaited<ReturnType<typeof sandbox.listen>> | undefined;
  beforeAll(async () => {
    running = await sandbox.listen({ log: (line) => listening.lines.push(line) });
    listening.url = running.url;
  });
  afterAll(async () => {
    await running?.stop();
  });
  return listening;
}
