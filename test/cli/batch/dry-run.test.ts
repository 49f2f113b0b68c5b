// update-many --dry-run: every line is checked, each bad one named by its number with the field and
// the rule, and nothing at all is sent, not even a token request; exit 1 with a bad line, 0 without.
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_TOKENS } from '../../../src/sandbox/index.js';
import { type CountingSandbox, countingSandbox, runMain, tempDir, updateLine } from './harness.js';

let sandbox: CountingSandbox;
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  sandbox = await countingSandbox({ clients: 1, accountsPerClient: 1000, keysPerAccount: 0 });
  dir = await tempDir();
});
afterAll(async () => {
  await sandbox?.stop();
  await dir?.remove();
});

// Line numbers (from 1) and what breaks each.
const BAD: Record<number, (line: string) => string> = {
  17: (line) =>
    line.replace(
      /"documentNumber":"([0-9]{10})([0-9])"/,
      (_m, head, last) => `"documentNumber":"${head}${(Number(last) + 1) % 10}"`,
    ),
  250: (line) => line.slice(0, -1),
  501: (line) => line.replace('"body":{', '"body":{"email":"not an e-mail",'),
  777: (line) => line.replace(/"account":"[0-9]+",/, ''),
  1000: (line) => line.replace('"body":{', '"body":{"nickname":"x",'),
};

describe('update-many --dry-run', () => {
  it('names exactly the 5 bad lines among 1,000 with field and rule, sends nothing (no token request either), exits 1', async () => {
    const accounts = sandbox.sandbox.clients[0]!.accounts;
    const lines = accounts.map((account, index) => {
      const line = updateLine(account, { isPoliticallyExposedPerson: index % 2 === 0 });
      return BAD[index + 1]?.(line) ?? line;
    });
    const input = dir.file('input.jsonl');
    await writeFile(input, `${lines.join('\n')}\n`);
    const client = sandbox.sandbox.clients[0]!;
    const run = await runMain(
      [
        'update-many',
        '--input',
        input,
        '--dry-run',
        '--base-url',
        sandbox.url,
        '--token-url',
        `${sandbox.url}${SANDBOX_TOKENS.path}`,
        '--client-id',
        client.clientId,
      ],
      { BAAS_CLIENT_SECRET: client.clientSecret },
    );
    expect(run.code).toBe(1);
    const named = run.stdout.split('\n').filter((line) => line.startsWith('line '));
    const numbers = [...new Set(named.map((line) => Number(/^line ([0-9]+):/.exec(line)![1])))];
    expect(numbers).toEqual([17, 250, 501, 777, 1000]);
    const of = (n: number) => named.filter((line) => line.startsWith(`line ${n}: `)).join('\n');
    expect(of(17)).toContain('documentNumber: ');
    expect(of(250)).toContain('JSON');
    expect(of(501)).toContain('body.email: ');
    expect(of(777)).toContain('account: ');
    expect(of(1000)).toContain('nickname');
    expect(sandbox.requests).toEqual([]);
    // No CPF of the input is shown, not even the broken one's.
    for (const account of accounts) expect(run.stdout + run.stderr).not.toContain(account.documentNumber);
  });

  it('exits 0 when every line is good, still sending nothing', async () => {
    const input = dir.file('good.jsonl');
    const accounts = sandbox.sandbox.clients[0]!.accounts.slice(0, 20);
    await writeFile(input, accounts.map((account) => updateLine(account, { socialName: 'Ok' })).join('\n'));
    const run = await runMain([
      'update-many',
      '--input',
      input,
      '--dry-run',
      '--base-url',
      sandbox.url,
      '--token',
      'x'.repeat(20),
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/^line /m);
    expect(sandbox.requests).toEqual([]);
  });
});
