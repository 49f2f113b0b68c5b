// The CNPJ as the Receita Federal defines it since July 2026 (IN RFB nº 2.229/2024), and the key
// directory's rules, in the response checks: the drift checker (what verify runs) and the client's
// `validateResponses: 'throw'`. An alphanumeric CNPJ whose check digits match is no drift; one whose
// check digits do not match is, wherever a record names a document (a cnpj or cpf key, a holder's
// document). An upper-case e-mail key, a 78-character key and an upper-case random key are drift.
import { describe, expect, it } from 'vitest';
import { loadDriftChecker } from '../../src/drift/index.js';
import { createBaasClient, BaasResponseError } from '../../src/index.js';
import type { PixKey, PixKeyList } from '../../src/types.js';
import { runVerify } from '../../src/verify/run.js';
import { exampleValue } from '../support/fixtures.js';
import { parseVerifyArgs } from './verify-cli.js';
import { fakeService, SERVICE_TOKEN } from './verify-service.js';

const RFB_EXAMPLE = '12ABC34501DE35';
const holder = (document: string) => ({ name: 'Silva Comércio Ltda', document_type: 'cnpj' as const, document });

/** The spec's first page with its first record made a CNPJ key held by the company of `document`. */
function pageWith(patch: Partial<PixKey>): PixKeyList {
  const page = structuredClone(exampleValue<PixKeyList>('FirstPage'));
  page.data[0] = { ...page.data[0]!, ...patch };
  return page;
}
const cnpjKey = (key: string, document = key) =>
  pageWith({ key_type: 'cnpj', key, beneficiary_entity: holder(document) });

const observed = (body: unknown) => ({
  operationId: 'listPixKeys',
  status: 200,
  headers: { 'content-type': 'application/json' },
  contentType: 'application/json',
  body,
});

describe('the drift checker', () => {
  it.each([
    ['the RFB example, an alphanumeric CNPJ', RFB_EXAMPLE],
    ['a numeric CNPJ (Banco do Brasil)', '00000000000191'],
    ['a numeric CNPJ (Petrobras)', '33000167000101'],
  ])('finds no drift in a CNPJ key and holder with %s', async (_case, cnpj) => {
    const checker = await loadDriftChecker();
    expect(checker.check(observed(cnpjKey(cnpj)))).toEqual([]);
  });

  it('reports a CNPJ with a wrong check digit, in the key and in the holder, by pointer, without the value', async () => {
    const checker = await loadDriftChecker();
    const problems = checker.check(observed(cnpjKey('12ABC34501DE36')));
    expect(problems).toEqual([
      { part: 'body', pointer: '/data/0/key', rule: 'must be a CNPJ whose check digits match (module 11)' },
      {
        part: 'body',
        pointer: '/data/0/beneficiary_entity/document',
        rule: 'must be a CNPJ whose check digits match (module 11)',
      },
    ]);
  });

  it("reports a CPF holder's document whose check digits do not match", async () => {
    const checker = await loadDriftChecker();
    const page = pageWith({});
    page.data[1]!.beneficiary_entity = { name: 'Maria Silva', document_type: 'cpf', document: '52998224724' };
    expect(checker.check(observed(page))).toEqual([
      {
        part: 'body',
        pointer: '/data/1/beneficiary_entity/document',
        rule: 'must be a CPF whose check digits match (module 11)',
      },
    ]);
  });

  it.each<[string, Partial<PixKey>, string]>([
    ['an upper-case e-mail key', { key_type: 'email', key: 'Maria.Silva@email.com.br' }, '/data/0/key'],
    ['a 78-character e-mail key', { key_type: 'email', key: `${'a'.repeat(64)}@exampl.com.br` }, '/data/0/key'],
    ['a 78-character key of a type not known yet', { key_type: 'pix_alias', key: 'k'.repeat(78) }, '/data/0/key'],
    ['an upper-case random key', { key_type: 'evp', key: '3F1C2D9E-7B4A-4C61-9A8E-2B5D7F0C1A34' }, '/data/0/key'],
    ['a CNPJ written with its dots', { key_type: 'cnpj', key: '12.ABC.345/01DE-35' }, '/data/0/key'],
  ])('reports %s', async (_case, patch, pointer) => {
    const checker = await loadDriftChecker();
    const problems = checker.check(observed(pageWith(patch)));
    expect(problems.map((problem) => problem.pointer)).toContain(pointer);
  });
});

describe("the client's validateResponses: 'throw'", () => {
  const client = (page: PixKeyList) =>
    createBaasClient({
      baseUrl: 'https://api.example.test',
      token: 'documents-token',
      validateResponses: 'throw',
      fetch: async () => Response.json(page),
    });

  it('takes a page with an alphanumeric CNPJ holder and key', async () => {
    const page = await client(cnpjKey(RFB_EXAMPLE)).listPixKeys();
    expect(page.data[0]!.key).toBe(RFB_EXAMPLE);
  });

  it('throws on a CNPJ whose check digits do not match', async () => {
    const error = await client(cnpjKey('12ABC34501DE53'))
      .listPixKeys()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasResponseError);
    expect(String((error as BaasResponseError).message)).toContain(
      '/data/0/key must be a CNPJ whose check digits match',
    );
  });
});

describe('verify', () => {
  const run = (page: PixKeyList) =>
    runVerify(parseVerifyArgs(['--base-url', 'http://127.0.0.1:9', '--token', SERVICE_TOKEN, '--pages', '1']), {
      fetch: fakeService((kind) =>
        kind === 'page1'
          ? { status: 200, headers: { 'content-type': 'application/json', 'x-request-id': 'r' }, body: page }
          : undefined,
      ).fetch,
    });

  it('reports no drift for a page with an alphanumeric CNPJ', async () => {
    const report = await run(cnpjKey(RFB_EXAMPLE));
    expect(report.checks[0]).toMatchObject({ check: 'list-keys page 1', verdict: 'ok' });
    expect(report.drifted).toBe(false);
  });

  it('reports drift for a CNPJ whose check digits do not match', async () => {
    const report = await run(cnpjKey('12ABC34501DE36'));
    expect(report.checks[0]).toMatchObject({ check: 'list-keys page 1', verdict: 'drift' });
    expect(report.drifted).toBe(true);
  });
});
