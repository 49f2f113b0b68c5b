// A JSONL line whose account, CPF or CEP is a JSON number (`"account": 12345`): a number has no leading
// zeros, so a CPF typed as one may already be another person's. update-many --dry-run, the real command
// line in a real process, says the field must be a string and shows the quoted form to write, never the
// value; nothing is quoted or padded for the user.
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './harness.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(() => dir?.remove());

const ADDRESS = { street: 'Rua A', number: '1', neighborhood: 'Centro', city: 'São Paulo', state: 'SP' };

describe('update-many: a JSON number where the contract takes a string', () => {
  it('names the field, says it must be a string, shows it quoted; the value is never shown; exit 1', async () => {
    const input = dir.file('numbers.jsonl');
    await writeFile(
      input,
      [
        '{"account": 12345, "documentNumber": "52998224725", "body": {"socialName": "Ana"}}',
        // A CPF that began with a zero, typed as a number: 10 digits left.
        '{"account": "300541976902", "documentNumber": 1234567890, "body": {"socialName": "Ana"}}',
        JSON.stringify({
          account: '300541976902',
          documentNumber: '52998224725',
          body: { address: { ...ADDRESS, postalCode: 1310100 } },
        }),
        '{"account": "300541976902", "documentNumber": "52998224725", "body": {"socialName": 7}}',
      ].join('\n'),
    );
    const ran = await runCli(['update-many', '--input', input, '--dry-run']);
    expect(ran.code, ran.stderr).toBe(1);
    expect(ran.stdout.trimEnd().split('\n')).toEqual([
      'line 1: account: must be a string, not a JSON number: write its digits in quotes, as in "account": "300541976902" (as a number, leading zeros are lost)',
      'line 2: documentNumber: must be a string, not a JSON number: write its 11 digits in quotes, leading zeros included, as in "documentNumber": "0123…" (as a number, 0123… becomes 1234…); nothing is padded for you',
      'line 3: body.address.postalCode: must be a string, not a JSON number: write its 8 digits in quotes, leading zeros included, as in "postalCode": "0123…" (as a number, 0123… becomes 1234…); nothing is padded for you',
      'line 4: body.socialName: must be a string, not a JSON number: write it in quotes, as in "socialName": "…"',
      '4 lines: 0 valid, 4 invalid; nothing sent (--dry-run)',
    ]);
    expect(ran.stdout).not.toMatch(/12345\b|1234567890|1310100/);
  });

  it('the same field as a string of the wrong shape keeps the rule of its shape', async () => {
    const input = dir.file('strings.jsonl');
    await writeFile(
      input,
      '{"account": "300541976902", "documentNumber": "1234567890", "body": {"socialName": "Ana"}}\n',
    );
    const ran = await runCli(['update-many', '--input', input, '--dry-run']);
    expect(ran.code).toBe(1);
    expect(ran.stdout).not.toContain('JSON number');
    expect(ran.stdout).toMatch(/^line 1: documentNumber: /m);
  });
});
