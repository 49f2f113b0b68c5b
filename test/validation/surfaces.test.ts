// One rule for the identifiers people type (src/validation/identifiers.ts), by every surface the same
// way: the client's updateNaturalPerson, updateMany, the update-many command (a CSV and a JSONL file, the
// real command line against a listening sandbox) and verify's write (--document-number and the --body
// file). The same written CPF, phone number and CEP go out as the same canonical values; the same CPF
// that cannot be made canonical is refused by each with the same words, before anything is sent.
import { writeFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readInput } from '../../src/cli/batch/input.js';
import { createBaasClient, updateMany, BaasValidationError } from '../../src/index.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { runVerify } from '../../src/verify/run.js';
import { countingSandbox, type CountingSandbox, killChildren, runCli, tempDir } from '../cli/batch/harness.js';
import { main as verifyMain, parseVerifyArgs } from '../drift/verify-cli.js';

const written = (cpf: string) => `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
const PHONE = '+55 (11) 98765-4321';
const CEP = '01310-100';
const address = {
  postalCode: CEP,
  street: 'Avenida Paulista',
  number: '1578',
  neighborhood: 'Bela Vista',
  city: 'São Paulo',
  state: 'SP' as const,
};
const CANONICAL = { phoneNumber: '+5511987654321', postalCode: '01310100' };
// A CPF whose check digits do not match (of 123.456.789-09): no surface sends it.
const BAD_CPF = '123.456.789-08';
const BAD_CPF_RULE = 'is not a CPF: its check digits do not match';

interface Sent {
  documentNumber: string | null;
  phoneNumber?: string | undefined;
  postalCode?: string | undefined;
}

async function sentOf(request: Request): Promise<Sent> {
  const body = (await request.clone().json()) as { phoneNumber?: string; address?: { postalCode?: string } };
  return {
    documentNumber: new URL(request.url).searchParams.get('DocumentNumber'),
    phoneNumber: body.phoneNumber,
    postalCode: body.address?.postalCode,
  };
}

function spiedSandbox() {
  const sandbox = createSandbox({ seed: 'surfaces', accountsPerClient: 2, keysPerAccount: 1 });
  const sent: Sent[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (request.method === 'PUT') sent.push(await sentOf(request));
    return sandbox.fetch(request);
  };
  return { sandbox, sent, fetch, account: sandbox.clients[0]!.accounts[0]! };
}

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await dir.remove();
});
afterEach(() => killChildren());

describe('every surface takes identifiers as people write them and sends the canonical form', () => {
  it('the client, updateMany, the update-many input and verify send the same values', async () => {
    const { sent, fetch, account, sandbox } = spiedSandbox();
    const expected: Sent = { documentNumber: account.documentNumber, ...CANONICAL };
    const client = createBaasClient({ baseUrl: 'https://sandbox.test', token: sandbox.clients[0]!.token, fetch });
    const item = {
      account: account.account,
      documentNumber: written(account.documentNumber),
      body: { phoneNumber: PHONE, address },
    };

    await client.updateNaturalPerson(item);
    for await (const result of updateMany(client, [item])) expect(result.ok).toBe(true);

    // update-many's two input forms, read as the command reads them, give the same canonical item.
    const csv = dir.file('customers.csv');
    await writeFile(
      csv,
      'Account,DocumentNumber,phoneNumber,address.postalCode,address.street,address.number,address.neighborhood,address.city,address.state\n' +
        `${item.account},${item.documentNumber},${PHONE},${CEP},Avenida Paulista,1578,Bela Vista,São Paulo,SP\n`,
    );
    const jsonl = dir.file('customers.jsonl');
    await writeFile(jsonl, `${JSON.stringify(item)}\n`);
    for (const file of [csv, jsonl]) {
      const lines = [];
      for await (const line of readInput(file)) lines.push(line);
      expect(lines.map((line) => line.issues)).toEqual([undefined]);
      for await (const result of updateMany(client, [lines[0]!.item!])) expect(result.ok).toBe(true);
    }

    const bodyFile = dir.file('update.json');
    await writeFile(bodyFile, JSON.stringify(item.body));
    const report = await runVerify(
      parseVerifyArgs([
        '--base-url',
        'http://127.0.0.1:9',
        '--token',
        sandbox.clients[0]!.token,
        '--pages',
        '1',
        '--allow-writes',
        '--account',
        item.account,
        '--document-number',
        item.documentNumber,
        '--body',
        bodyFile,
      ]),
      { fetch: (url, init) => fetch(url, init) },
    );
    expect(report.checks.find((check) => check.check === 'update natural person (write)')).toMatchObject({
      verdict: 'ok',
    });

    // The client, updateMany, the CSV line, the JSONL line and verify: five updates, all alike.
    expect(sent).toEqual([expected, expected, expected, expected, expected]);
  });

  it('the update-many command sends the canonical values from a CSV with written identifiers', async () => {
    const counting: CountingSandbox = await countingSandbox({
      seed: 'surfaces-cli',
      accountsPerClient: 2,
      keysPerAccount: 1,
    });
    try {
      const client = counting.sandbox.clients[0]!;
      const csv = dir.file('cli.csv');
      await writeFile(
        csv,
        'Account,DocumentNumber,phoneNumber,address.postalCode,address.street,address.number,address.neighborhood,address.city,address.state\n' +
          client.accounts
            .map(
              (a) =>
                `${a.account},${written(a.documentNumber)},${PHONE},${CEP},Avenida Paulista,1578,Bela Vista,São Paulo,SP`,
            )
            .join('\n') +
          '\n',
      );
      const run = await runCli(['update-many', '--input', csv, '--base-url', counting.url], {
        BAAS_TOKEN: client.token,
      });
      expect(run.code, run.stderr).toBe(0);
      for (const account of client.accounts) {
        expect(counting.updated.get(account.account)).toBe(1);
        const customer = counting.sandbox
          .snapshot()
          .clients[0]!.accounts.find((a) => a.accountId === account.accountId)!;
        expect(customer).toMatchObject({
          data: { phoneNumber: CANONICAL.phoneNumber, address: { postalCode: CANONICAL.postalCode } },
        });
      }
    } finally {
      await counting.stop();
    }
  });
});

describe('every surface refuses the same CPF with the same words, sending nothing', () => {
  it('the client, updateMany, the update-many input and verify', async () => {
    const { sent, fetch, account, sandbox } = spiedSandbox();
    const client = createBaasClient({ baseUrl: 'https://sandbox.test', token: sandbox.clients[0]!.token, fetch });
    const item = { account: account.account, documentNumber: BAD_CPF, body: { phoneNumber: PHONE } };

    const error = await client.updateNaturalPerson(item).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasValidationError);
    expect((error as BaasValidationError).issues).toEqual([
      {
        path: 'DocumentNumber',
        rule: expect.stringContaining(BAD_CPF_RULE),
        message: expect.stringContaining(`DocumentNumber ${BAD_CPF_RULE}`),
      },
    ]);

    for await (const result of updateMany(client, [item])) {
      expect(result.ok).toBe(false);
      expect(JSON.stringify(result)).toContain(BAD_CPF_RULE);
    }

    const jsonl = dir.file('bad.jsonl');
    await writeFile(jsonl, `${JSON.stringify(item)}\n`);
    for await (const line of readInput(jsonl))
      expect(line.issues).toEqual([{ field: 'documentNumber', rule: expect.stringContaining(BAD_CPF_RULE) }]);

    const bodyFile = dir.file('bad-update.json');
    await writeFile(bodyFile, '{"email":"maria@example.com"}');
    // verify, as the command line runs it: its one check of the update (the client's preflightUpdate)
    // names the flag and says the client's words, with the other problems of the update if any.
    const said: string[] = [];
    const requested: string[] = [];
    const code = await verifyMain(
      [
        '--base-url',
        'http://127.0.0.1:9',
        '--token',
        sandbox.clients[0]!.token,
        '--allow-writes',
        '--account',
        item.account,
        '--document-number',
        BAD_CPF,
        '--body',
        bodyFile,
      ],
      {
        out: (text) => said.push(text),
        err: (text) => said.push(text),
        env: {},
        fetch: async (input, init) => {
          requested.push(new Request(input, init).url);
          return fetch(input, init);
        },
      },
    );
    expect(code).toBe(2);
    expect(said.join('\n')).toContain(`--document-number: DocumentNumber ${BAD_CPF_RULE}`);
    expect(requested).toEqual([]);
    expect(sent).toEqual([]);
  });
});
