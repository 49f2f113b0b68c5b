// One property over every surface that can show what a hostile provider (or a hostile client of
// our servers) sends: generated answers carry the call's bearer token and the call's CPF, in several
// spellings, as member names and as values, nested, in headers and in bodies. Whatever comes, none
// of them may show on any surface:
// - a client error: message, String, JSON.stringify, toJSON, util.inspect (its stack and cause too);
// - the client's logger (every argument) and its events (`client.on`, every type);
// - the command line's request log (a hostile 422 and a hostile request body);
// - verify's table and JSON report;
// - the sandbox's snapshot() after hostile updates.
// Each surface is checked separately, so removing the masking of any one of them fails this file
// (SECURITY.md lists what was removed and what failed).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { fc, test } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { startRequestLog, type RequestLog } from '../../src/cli/request-log.js';
import { createBaasClient, type BaasEventType } from '../../src/index.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { outputSecrets } from '../../src/verify/options.js';
import { formatJson, formatTable } from '../../src/verify/report.js';
import { runVerify } from '../../src/verify/run.js';
import { cpf, FREE_TEXT_FIELDS, stringSchemaAt } from '../support/arbitraries.js';
import { firstPageKeys } from '../support/fixtures.js';
import { parseVerifyArgs } from '../drift/verify-cli.js';

const SEED = 19_019;
const EVENT_TYPES: BaasEventType[] = ['request', 'response', 'retry', 'error', 'token', 'drift'];

// ---------------------------------------------------------------------------------------------
// What a leak is

/** The usual spellings of a CPF (what every surface masks, whoever's CPF it is). */
const usualSpellings = (d: string): string[] => [
  d,
  `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`,
  `${d.slice(0, 9)}-${d.slice(9)}`,
  `${d.slice(0, 3)} ${d.slice(3, 6)} ${d.slice(6, 9)} ${d.slice(9)}`,
  `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}.${d.slice(9)}`,
];
/** Spellings only the numbers a call carried are masked in (any separator between any digits). */
const oddSpellings = (d: string): string[] => [
  d.split('').join(' '),
  `${d.slice(0, 3)}/${d.slice(3, 6)}/${d.slice(6, 9)}/${d.slice(9)}`,
  `${d.slice(0, 5)}_${d.slice(5)}`,
];

/** Whether `text` shows the CPF's masked part (its first nine digits, in order, with at most 3 separators between two). */
function showsCpf(text: string, digits: string): boolean {
  return new RegExp(digits.slice(0, 9).split('').join('[^0-9A-Za-z]{0,3}')).test(text);
}

function leaks(surface: string, text: string, secrets: { token: string; cpf: string }): string[] {
  const found: string[] = [];
  if (text.includes(secrets.token)) found.push(`${surface}: the token`);
  if (showsCpf(text, secrets.cpf)) found.push(`${surface}: the CPF`);
  return found;
}

// ---------------------------------------------------------------------------------------------
// Hostile answers

const tokenArb = fc.stringMatching(/^[A-Za-z0-9_-]{20,40}$/).map((tail) => `sbx_${tail}`);

/** One secret as it will be written: the token (bare or after Bearer) or the CPF in some spelling. */
type Leak = { secret: 'token' } | { secret: 'bearer' } | { secret: 'cpf'; spelling: 'usual' | 'odd'; index: number };
const leakArb: fc.Arbitrary<Leak> = fc.oneof(
  fc.constant({ secret: 'token' as const }),
  fc.constant({ secret: 'bearer' as const }),
  fc.nat({ max: 4 }).map((index) => ({ secret: 'cpf' as const, spelling: 'usual' as const, index })),
  fc.nat({ max: 2 }).map((index) => ({ secret: 'cpf' as const, spelling: 'odd' as const, index })),
);
const written = (leak: Leak, { token, cpf: d }: { token: string; cpf: string }): string =>
  leak.secret === 'token'
    ? token
    : leak.secret === 'bearer'
      ? `Bearer ${token}`
      : (leak.spelling === 'usual' ? usualSpellings(d) : oddSpellings(d))[leak.index]!;

/** Where the leak goes in a JSON value: as a member name or a value, up to 3 levels down. */
type Placement = { asName: boolean; path: ('errors' | 'detail' | 'meta' | 'array')[] };
const placementArb: fc.Arbitrary<Placement> = fc.record({
  asName: fc.boolean(),
  path: fc.array(fc.constantFrom('errors', 'detail', 'meta', 'array'), { maxLength: 3 }),
});
function place({ asName, path }: Placement, leak: string): unknown {
  let node: unknown = asName ? { [leak]: 'not found' } : leak;
  for (const step of [...path].reverse()) node = step === 'array' ? ['x', node] : { [step]: node };
  return node;
}

interface Hostile {
  status: number;
  body: 'problem' | 'envelope' | 'page' | 'text';
  contentType: string;
  inBody: Placement;
  inHeader: 'x-request-id' | 'x-echo' | 'content-type' | 'name' | 'none';
  /** No answer at all: the connection fails with an error whose message and reason carry the leak. */
  fails: boolean;
  leaks: [Leak, Leak];
}

const hostileArb: fc.Arbitrary<Hostile> = fc.record({
  status: fc.constantFrom(200, 400, 401, 404, 409, 422, 429, 500, 503),
  body: fc.constantFrom('problem', 'envelope', 'page', 'text'),
  contentType: fc.constantFrom('application/problem+json', 'application/json', 'text/plain', 'text/html'),
  inBody: placementArb,
  inHeader: fc.constantFrom('x-request-id', 'x-echo', 'content-type', 'name', 'none'),
  fails: fc.boolean(),
  leaks: fc.tuple(leakArb, leakArb),
});

/**
 * The answer a hostile provider gives, with the secrets of this call written into it. The odd
 * spellings are masked only for a number the call carried: `carried` false writes the usual ones.
 */
async function answer(h: Hostile, secrets: { token: string; cpf: string }, carried = true): Promise<Response> {
  const usual = (leak: Leak): Leak => (carried || leak.secret !== 'cpf' ? leak : { ...leak, spelling: 'usual' });
  const [bodyLeak, headerLeak] = [written(usual(h.leaks[0]), secrets), written(usual(h.leaks[1]), secrets)];
  const placed = place(h.inBody, bodyLeak);
  const json =
    h.body === 'problem'
      ? { type: 'about:blank', title: 'Invalid', status: h.status, detail: 'see errors', errors: placed }
      : h.body === 'envelope'
        ? { status: 'ERROR', error: { errorCode: bodyLeak, message: JSON.stringify(placed) } }
        : { data: firstPageKeys(), cursor: { next: null }, extra: placed };
  const text = h.body === 'text' ? `Customer ${bodyLeak} rejected: ${JSON.stringify(placed)}` : JSON.stringify(json);
  if (h.fails)
    throw Object.assign(new Error(`connect failed for ${headerLeak}`), {
      code: 'ECONNRESET',
      reason: `peer said ${bodyLeak}`,
    });
  const headers = new Headers({ 'content-type': h.contentType });
  if (h.inHeader === 'name') headers.set(`x-${secrets.cpf}`, '1');
  else if (h.inHeader === 'content-type') headers.set('content-type', `${h.contentType}; profile="${headerLeak}"`);
  else if (h.inHeader !== 'none') headers.set(h.inHeader, headerLeak);
  return new Response(text, { status: h.status, headers });
}

// ---------------------------------------------------------------------------------------------
// The client: errors, logger, events

describe('a hostile provider, seen through the client', () => {
  test.prop([hostileArb, tokenArb, cpf, fc.boolean()], { numRuns: 150, seed: SEED })(
    'shows no token and no CPF on any surface of the client',
    async (h, token, documentNumber, list) => {
      const secrets = { token, cpf: documentNumber };
      const logged: string[] = [];
      const record = (...args: unknown[]) =>
        logged.push(args.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: null }))).join(' '));
      const client = createBaasClient({
        baseUrl: 'https://provider.test',
        token,
        retry: false,
        validateResponses: 'warn',
        logLevel: 'debug',
        logger: { debug: record, info: record, warn: record, error: record },
        // listPixKeys carries no CPF: the CPF a provider writes there is masked in its usual spellings.
        fetch: async () => answer(h, secrets, !list),
      });
      const events: string[] = [];
      for (const type of EVENT_TYPES)
        client.on(type, (event) => events.push(`${inspect(event, { depth: null })} ${JSON.stringify(event)}`));

      const outcome = list
        ? await client.listPixKeys({ limit: 5 }).catch((e: unknown) => e)
        : await client
            .updateNaturalPerson({ account: '300541976902', documentNumber, body: { socialName: 'Ana' } })
            .catch((e: unknown) => e);

      const found: string[] = [];
      if (outcome instanceof Error) {
        const error = outcome as Error & { toJSON(): unknown };
        found.push(
          ...leaks('message', error.message, secrets),
          ...leaks('String', String(error), secrets),
          ...leaks('JSON.stringify', JSON.stringify(error), secrets),
          ...leaks('toJSON', JSON.stringify(error.toJSON()), secrets),
          ...leaks('util.inspect', inspect(error, { depth: null }), secrets),
        );
      }
      found.push(...leaks('logger', logged.join('\n'), secrets), ...leaks('events', events.join('\n'), secrets));
      expect(found).toEqual([]);
      // The property is not vacuous: the answer did reach the surfaces.
      expect(logged.length).toBeGreaterThan(0);
    },
  );
});

// ---------------------------------------------------------------------------------------------
// The command line's request log

describe('a hostile 422 and a hostile request, seen through the request log', () => {
  let upstream: Server;
  let front: RequestLog;
  const lines: string[] = [];
  let nextAnswer: { body: string; violations?: string } = { body: '{}' };

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      req.resume().on('end', () => {
        // Prism names the fields at fault in sl-violations; our sandbox in the body's violations.
        res.writeHead(422, {
          'content-type': 'application/problem+json',
          ...(nextAnswer.violations === undefined ? {} : { 'sl-violations': nextAnswer.violations }),
        });
        res.end(nextAnswer.body);
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    front = await startRequestLog({
      target: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      host: '127.0.0.1',
      port: 0,
      log: (line) => lines.push(line),
    });
  });
  afterAll(async () => {
    await front?.stop();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  const send = (path: string, body: string) =>
    new Promise<void>((resolve, reject) => {
      const req = httpRequest(
        `${front.url}${path}`,
        { method: 'PUT', headers: { 'content-type': 'application/json' } },
        (res) => res.resume().on('end', resolve),
      );
      req.on('error', reject);
      req.end(body);
    });

  // In a path, a bare token cannot be told from an id (the log does not know the mock's tokens): the
  // path carries the token after Bearer, or a CPF.
  const pathLeakArb = leakArb.filter((leak) => leak.secret !== 'token');
  test.prop([tokenArb, cpf, leakArb, pathLeakArb, fc.boolean()], { numRuns: 60, seed: SEED })(
    'logs no token and no CPF, whatever the body names',
    async (token, documentNumber, nameLeak, pathLeak, prism) => {
      const secrets = { token, cpf: documentNumber };
      const name = written(nameLeak, secrets);
      nextAnswer = prism
        ? {
            body: '{}',
            violations: JSON.stringify([
              { location: ['request', 'body', name], severity: 'Error', message: `property '${name}' found` },
            ]),
          }
        : { body: JSON.stringify({ status: 422, violations: [{ property: `/${name}`, reason: 'unknown' }] }) };
      const before = lines.length;
      await send(
        `/v2/x/${encodeURIComponent(written(pathLeak, secrets))}?DocumentNumber=${documentNumber}`,
        JSON.stringify({ [name]: 1 }),
      );
      await expect.poll(() => lines.length).toBeGreaterThan(before);
      expect(leaks('request log', lines.slice(before).join('\n'), secrets)).toEqual([]);
    },
  );
});

// ---------------------------------------------------------------------------------------------
// verify

describe('a hostile provider, seen through verify', () => {
  let folder: string;
  let bodyFile: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'hostile-verify-'));
    bodyFile = join(folder, 'body.json');
    await writeFile(bodyFile, JSON.stringify({ socialName: 'Ana' }));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  test.prop([hostileArb, tokenArb, cpf], { numRuns: 40, seed: SEED })(
    "shows no token and no CPF in verify's table or report",
    async (h, token, documentNumber) => {
      const secrets = { token, cpf: documentNumber };
      const options = parseVerifyArgs(
        [
          '--base-url',
          'https://provider.test',
          '--pages',
          '2',
          '--allow-writes',
          '--account',
          '300541976902',
          '--document-number',
          documentNumber,
          '--body',
          bodyFile,
        ],
        { BAAS_TOKEN: token },
      );
      const report = await runVerify(options, { fetch: async () => answer(h, secrets), sleep: async () => undefined });
      // What the command line masks its output with (src/verify/cli.ts).
      const masked = outputSecrets(options);
      const found = [
        ...leaks('verify table', formatTable(report, masked), secrets),
        ...leaks('verify report', formatJson(report, masked), secrets),
      ];
      expect(found).toEqual([]);
    },
  );
});

// ---------------------------------------------------------------------------------------------
// The sandbox's snapshot

describe('hostile updates, seen through the sandbox snapshot', () => {
  const FREE_TEXT = FREE_TEXT_FIELDS.filter((pointer) => !pointer.startsWith('/address/')).map((pointer) =>
    pointer.slice(1),
  );
  test.prop([fc.nat({ max: 4 }), fc.constantFrom(...FREE_TEXT)], { numRuns: 25, seed: SEED })(
    'shows no CPF in snapshot(), whatever a client wrote',
    async (spelling, field) => {
      const sandbox = createSandbox({ seed: 'hostile' });
      const client = sandbox.clients[0]!;
      const target = client.accounts[0]!;
      // A client writes another customer's CPF (and its own account's) into a free-text field.
      const other = sandbox.clients[0]!.accounts[1]!.documentNumber;
      const written = `${usualSpellings(other)[spelling]} ${usualSpellings(target.documentNumber)[spelling]}`;
      const url = `https://sandbox.test/v2/api/baas-onboarding/account/natural-person?Account=${target.account}&DocumentNumber=${target.documentNumber}`;
      const response = await sandbox.fetch(url, {
        method: 'PUT',
        headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ [field]: written.slice(0, stringSchemaAt(`/${field}`).maxLength) }),
      });
      expect(response.status).toBe(200);
      const shown = `${JSON.stringify(sandbox.snapshot())}\n${inspect(sandbox.snapshot(), { depth: null })}`;
      for (const account of client.accounts)
        expect(leaks('snapshot', shown, { token: client.token, cpf: account.documentNumber })).toEqual([]);
    },
  );
});
