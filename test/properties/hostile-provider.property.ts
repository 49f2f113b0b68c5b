// One property over every surface that can show what a hostile provider (or a hostile client of
// our servers) sends: generated answers carry the call's bearer token and the call's CPF, in several
// spellings, as member names and as values, nested, in headers and in bodies. Whatever comes, none
// of them may show on any surface:
// - a client error: message, String, JSON.stringify, toJSON, util.inspect (its stack and cause too);
// - the client's logger (every argument) and its events (`client.on`, every type);
// - the command line's request log (a hostile 422 and a hostile request body);
// - verify's table and JSON report;
// - the sandbox's snapshot() after hostile updates;
// - the sandbox's listen({ log }) lines and its problem answers to a hostile client;
// - the client's spans, a same-origin redirect to a path holding the secrets percent-encoded included;
// - update-many's output for a bad line whose column or member is named by a CPF.
// The spellings include the ones issue 26 found shown: digits of other scripts (full-width,
// Arabic-Indic), percent-encoding, and `/` or `_` between the groups.
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
import { UsageError } from '../../src/cli/command.js';
import { readInput } from '../../src/cli/batch/input.js';
import { badLineText } from '../../src/cli/batch/update-many-run.js';
import { startRequestLog, type RequestLog } from '../../src/cli/request-log.js';
import { createBaasClient, type BaasEventType } from '../../src/index.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { outputSecrets } from '../../src/verify/options.js';
import { serialized, startOtel, stopOtel } from '../tracing/otel-setup.js';
import { formatJson, formatTable } from '../../src/verify/report.js';
import { runVerify } from '../../src/verify/run.js';
import { cpf, FREE_TEXT_FIELDS, stringSchemaAt } from '../support/arbitraries.js';
import { firstPageKeys } from '../support/fixtures.js';
import { readable } from '../support/readable.js';
import { listeningSandbox } from '../support/listening-sandbox.js';
import { parseVerifyArgs, writeFlags } from '../drift/verify-cli.js';
import { type Depth, runsAt } from './depth.js';

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
const FULL_WIDTH_ZERO = 0xff10;
const ARABIC_INDIC_ZERO = 0x0660;
const inScript = (d: string, zero: number): string =>
  [...d].map((digit) => (/[0-9]/.test(digit) ? String.fromCharCode(zero + Number(digit)) : digit)).join('');
const percentEncoded = (text: string): string =>
  [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');
/** Spellings issue 26 found shown (other scripts' digits, percent-encoding, `/` and `_`): masked for anyone's CPF now. */
const newSpellings = (d: string): string[] => [
  `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}/${d.slice(9)}`,
  `${d.slice(0, 3)}_${d.slice(3, 6)}_${d.slice(6, 9)}_${d.slice(9)}`,
  inScript(d, FULL_WIDTH_ZERO),
  inScript(`${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`, FULL_WIDTH_ZERO),
  inScript(d, ARABIC_INDIC_ZERO),
  percentEncoded(d),
  encodeURIComponent(`${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`).replace(/\./g, '%2E'),
];
/** Every spelling a CPF of anyone is masked in. */
const anySpellings = (d: string): string[] => [...usualSpellings(d), ...newSpellings(d)];
const ANY_SPELLINGS = anySpellings('00000000000').length;
/** Spellings only the numbers a call carried are masked in (any separator between any digits). */
const oddSpellings = (d: string): string[] => [
  d.split('').join(' '),
  `${d.slice(0, 3)}/${d.slice(3, 6)}/${d.slice(6, 9)}/${d.slice(9)}`,
  `${d.slice(0, 5)}_${d.slice(5)}`,
];

/** Whether `text` shows the CPF's masked part (its first nine digits, in order, with at most 3 separators between two). */
function showsCpf(text: string, digits: string): boolean {
  return new RegExp(digits.slice(0, 9).split('').join('[^0-9A-Za-z]{0,3}')).test(readable(text));
}

function leaks(surface: string, text: string, secrets: { token: string; cpf: string }): string[] {
  const found: string[] = [];
  if (text.includes(secrets.token) || readable(text).includes(secrets.token)) found.push(`${surface}: the token`);
  if (showsCpf(text, secrets.cpf)) found.push(`${surface}: the CPF`);
  return found;
}

// ---------------------------------------------------------------------------------------------
// Hostile answers

const tokenArb = fc.stringMatching(/^[A-Za-z0-9_-]{20,40}$/).map((tail) => `sbx_${tail}`);

/** One secret as it will be written: the token (bare or after Bearer) or the CPF in some spelling. */
type Leak =
  | { secret: 'token' }
  | { secret: 'bearer' }
  | { secret: 'encoded token' }
  | { secret: 'cpf'; spelling: 'usual' | 'odd'; index: number };
const leakArb: fc.Arbitrary<Leak> = fc.oneof(
  fc.constant({ secret: 'token' as const }),
  fc.constant({ secret: 'bearer' as const }),
  fc.constant({ secret: 'encoded token' as const }),
  fc.nat({ max: ANY_SPELLINGS - 1 }).map((index) => ({ secret: 'cpf' as const, spelling: 'usual' as const, index })),
  fc.nat({ max: 2 }).map((index) => ({ secret: 'cpf' as const, spelling: 'odd' as const, index })),
);
const written = (leak: Leak, { token, cpf: d }: { token: string; cpf: string }): string =>
  leak.secret === 'token'
    ? token
    : leak.secret === 'bearer'
      ? `Bearer ${token}`
      : leak.secret === 'encoded token'
        ? percentEncoded(token)
        : (leak.spelling === 'usual' ? anySpellings(d) : oddSpellings(d))[leak.index]!;

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
  /** First a same-origin redirect to a path holding both leaks percent-encoded. */
  redirect: boolean;
  leaks: [Leak, Leak];
}

const hostileArb: fc.Arbitrary<Hostile> = fc.record({
  status: fc.constantFrom(200, 400, 401, 404, 409, 422, 429, 500, 503),
  body: fc.constantFrom('problem', 'envelope', 'page', 'text'),
  contentType: fc.constantFrom('application/problem+json', 'application/json', 'text/plain', 'text/html'),
  inBody: placementArb,
  inHeader: fc.constantFrom('x-request-id', 'x-echo', 'content-type', 'name', 'none'),
  fails: fc.boolean(),
  redirect: fc.boolean(),
  leaks: fc.tuple(leakArb, leakArb),
});

/** Where a hostile redirect points: the two leaks percent-encoded in a path of the same origin. */
const REDIRECTED = '/v2/moved/';

/**
 * The answer a hostile provider gives, with the secrets of this call written into it. The odd
 * spellings are masked only for a number the call carried: `carried` false writes the usual ones.
 */
async function answer(
  h: Hostile,
  secrets: { token: string; cpf: string },
  carried = true,
  url = '',
): Promise<Response> {
  const usual = (leak: Leak): Leak => (carried || leak.secret !== 'cpf' ? leak : { ...leak, spelling: 'usual' });
  const [bodyLeak, headerLeak] = [written(usual(h.leaks[0]), secrets), written(usual(h.leaks[1]), secrets)];
  if (h.redirect && !url.includes(REDIRECTED))
    return new Response(null, {
      status: 302,
      headers: {
        location: `${REDIRECTED}${percentEncoded(bodyLeak)}/${encodeURIComponent(headerLeak)}?at=${percentEncoded(bodyLeak)}`,
      },
    });
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

/** The properties, at `depth` (./depth.ts): hostile-provider.test.ts quick, hostile-provider.matrix.test.ts full. */
export function hostileProvider(depth: Depth): void {
  const { exporter } = startOtel();
  afterAll(stopOtel);

  describe('a hostile provider, seen through the client', () => {
    test.prop([hostileArb, tokenArb, cpf, fc.boolean()], { numRuns: runsAt(depth, 150), seed: SEED })(
      'shows no token and no CPF on any surface of the client',
      async (h, token, documentNumber, list) => {
        const secrets = { token, cpf: documentNumber };
        exporter.reset();
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
          fetch: async (url) => answer(h, secrets, !list, url),
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
        found.push(
          ...leaks('logger', logged.join('\n'), secrets),
          ...leaks('events', events.join('\n'), secrets),
          ...leaks('spans', serialized(exporter.getFinishedSpans()), secrets),
        );
        expect(found).toEqual([]);
        expect(exporter.getFinishedSpans()).toHaveLength(1);
        // The property is not vacuous: the answer did reach the surfaces.
        expect(logged.length).toBeGreaterThan(0);
      },
      // 150 runs through the client took 16.5 s in a run of this file alone and 37 s inside npm test at a load of 18
      // (beside a mutation run): a backstop, not an estimate, so that the outcome never depends on the load.
      120_000,
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
    const pathLeakArb = leakArb.filter((leak) => leak.secret !== 'token' && leak.secret !== 'encoded token');
    test.prop([tokenArb, cpf, leakArb, pathLeakArb, fc.boolean()], { numRuns: runsAt(depth, 60), seed: SEED })(
      'logs no token and no CPF, whatever the body names',
      async (token, documentNumber, nameLeak, pathLeak, prism) => {
        const secrets = { token, cpf: documentNumber };
        const name = written(nameLeak, secrets);
        nextAnswer = prism
          ? {
              body: '{}',
              // A header holds ASCII only: what is not, JSON writes as \u escapes.
              violations: JSON.stringify([
                { location: ['request', 'body', name], severity: 'Error', message: `property '${name}' found` },
              ]).replace(/[^\u0020-\u007e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
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

    test.prop([hostileArb, tokenArb, cpf], { numRuns: runsAt(depth, 40), seed: SEED })(
      "shows no token and no CPF in verify's table or report",
      async (h, token, documentNumber) => {
        const secrets = { token, cpf: documentNumber };
        const options = parseVerifyArgs(
          ['--base-url', 'https://provider.test', '--pages', '2', ...writeFlags(documentNumber, bodyFile)],
          { BAAS_TOKEN: token },
        );
        const report = await runVerify(options, {
          fetch: async (url) => answer(h, secrets, true, url),
          wait: async () => undefined,
        });
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
    test.prop([fc.nat({ max: 4 }), fc.constantFrom(...FREE_TEXT)], { numRuns: runsAt(depth, 25), seed: SEED })(
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

  // ---------------------------------------------------------------------------------------------
  // The sandbox's listen log and answers

  describe('a hostile client, seen through the sandbox listen log and its answers', () => {
    const listening = listeningSandbox('hostile-listen');
    const { client, customer, lines } = listening;

    // A bare token cannot be told from an id in a path or a value the log does not know: the client
    // writes its token after Bearer, or a CPF. The log masks runs of digits within a path segment, so
    // a spelling that splits the CPF into segments (`/`) is left to the other places.
    // The odd spellings are masked only for a number a call carried, and this CPF is not the one the
    // request names.
    const clientLeakArb = leakArb.filter(
      (leak) => leak.secret === 'bearer' || (leak.secret === 'cpf' && leak.spelling === 'usual'),
    );
    test.prop(
      [cpf, clientLeakArb, fc.constantFrom('path', 'DocumentNumber', 'Account', 'cursor', 'limit', 'other', 'member')],
      { numRuns: runsAt(depth, 60), seed: SEED },
    )('logs and answers no token and no CPF, wherever the client writes them', async (documentNumber, leak, where) => {
      const secrets = { token: client.token, cpf: documentNumber };
      const text = written(leak, secrets);
      fc.pre(where !== 'path' || !text.includes('/'));
      const headers = {
        authorization: `Bearer ${client.token}`,
        'user-agent': 'hostile/1',
        'content-type': 'application/json',
      };
      const update = `/v2/api/baas-onboarding/account/natural-person`;
      const own = `Account=${customer.account}&DocumentNumber=${customer.documentNumber}`;
      const value = encodeURIComponent(text);
      const [path, query, body] =
        where === 'path'
          ? [`/v2/api/pix/keys/${text}`, 'limit=1', undefined]
          : where === 'member'
            ? [update, own, JSON.stringify({ [text]: 'x' })]
            : where === 'other'
              ? [update, `${own}&note=${value}`, '{}']
              : where === 'cursor' || where === 'limit'
                ? ['/v2/api/pix/keys/list-keys', `${where}=${value}`, undefined]
                : [update, `${where}=${value}`, '{}'];
      const before = lines.length;
      const response = await fetch(`${listening.url}${path}?${query}`, {
        method: body ? 'PUT' : 'GET',
        headers,
        ...(body === undefined ? {} : { body }),
      });
      const answered = await response.text();
      await expect.poll(() => lines.length).toBeGreaterThan(before);
      // The CPF of the customer the query names is the client's own: it is checked in the log only.
      expect([
        ...leaks('sandbox log', lines.slice(before).join('\n'), secrets),
        ...leaks('sandbox log', lines.slice(before).join('\n'), { token: client.token, cpf: customer.documentNumber }),
        ...leaks('sandbox answer', answered, secrets),
      ]).toEqual([]);
    });
  });

  // ---------------------------------------------------------------------------------------------
  // The command line's batch output

  describe("a hostile input file, seen through update-many's output", () => {
    let folder: string;
    beforeAll(async () => {
      folder = await mkdtemp(join(tmpdir(), 'hostile-input-'));
    });
    afterAll(async () => {
      await rm(folder, { recursive: true, force: true });
    });

    // The file is the user's: a column or a member named by a CPF (anyone's, in any spelling a CPF of
    // anyone is masked in) is refused by its line number and field (a CSV column, by the header, for the
    // whole file), and the field is shown masked.
    const inputLeakArb = leakArb.filter((leak) => leak.secret === 'cpf' && leak.spelling === 'usual');
    test.prop([cpf, inputLeakArb, fc.constantFrom('csv', 'jsonl')], { numRuns: runsAt(depth, 30), seed: SEED })(
      'names a bad line by number and field, and shows no CPF',
      async (documentNumber, leak, format) => {
        const secrets = { token: 'no token here', cpf: documentNumber };
        const name = written(leak, secrets);
        const file = join(folder, `input.${format}`);
        await writeFile(
          file,
          format === 'csv'
            ? `Account,DocumentNumber,"${name}"\n300541976902,52998224725,x\n`
            : `${JSON.stringify({ account: '300541976902', documentNumber: '52998224725', body: { [name]: 'x' } })}\n`,
        );
        // A CSV column the update does not have refuses the file once, by its header (a usage error).
        const shown: string[] = [];
        try {
          for await (const line of readInput(file)) shown.push(...badLineText(line));
        } catch (error) {
          if (format !== 'csv' || !(error instanceof UsageError)) throw error;
          expect(error.message).toMatch(/line 1, the header: /);
          shown.push(error.message);
        }
        expect(shown.length).toBeGreaterThan(0);
        expect(leaks('update-many output', shown.join('\n'), secrets)).toEqual([]);
      },
    );
  });
}
