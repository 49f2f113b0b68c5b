// Issue 26's "What broke", items 6 to 9, each as the hostile review reproduced it: a provider (or a
// client of the sandbox) writes a secret where a newer surface showed it. Each test goes through the
// public surface (the client, its logger, its spans, the sandbox's listen log and answers, the
// command line), so it fails when any one of those surfaces stops calling src/redact.ts.
import { writeFile } from 'node:fs/promises';
import { inspect } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BaasApiError, createBaasClient, type BaasError } from '../../src/index.js';
import { MAX_PROVIDER_TEXT } from '../../src/redact.js';
import { killChildren, runCli, tempDir } from '../cli/batch/harness.js';
import { listeningSandbox } from '../support/listening-sandbox.js';
import { PAST_THE_STACK } from '../support/past-the-stack.js';
import { readable } from '../support/readable.js';
import { serialized, startOtel, stopOtel } from '../tracing/otel-setup.js';

const TOKEN = 'sbx_what-broke_0123456789abcdef';
const CPF = '52998224725';
const OTHER_CPF = '11144477735';
const FULL_WIDTH = '５２９９８２２４７２５';
const ARABIC_INDIC = '٥٢٩٩٨٢٢٤٧٢٥';

const { exporter } = startOtel();
afterAll(stopOtel);
afterEach(killChildren);

/** Whether the text shows the first nine digits of `digits`, in order, with at most 3 separators between two. */
const showsCpf = (text: string, digits: string): boolean =>
  new RegExp(digits.slice(0, 9).split('').join('[^0-9A-Za-z]{0,3}')).test(readable(text));

/** Every surface of an error a program shows or logs. */
const surfacesOf = (error: BaasError): string =>
  [
    error.message,
    String(error),
    JSON.stringify(error),
    JSON.stringify(error.toJSON()),
    inspect(error, { depth: null }),
  ].join('\n');

/** A client whose provider answers `answer`, logging every level into `logged`. */
function hostileClient(answer: (url: string, calls: number) => Response) {
  const logged: string[] = [];
  /** The first argument of each logger call: the line a plain-text logger writes. */
  const lines: string[] = [];
  const record = (...args: unknown[]) => {
    lines.push(String(args[0]));
    logged.push(
      args.map((a) => (typeof a === 'string' ? a : `${inspect(a, { depth: null })} ${JSON.stringify(a)}`)).join(' '),
    );
  };
  let calls = 0;
  const client = createBaasClient({
    baseUrl: 'https://provider.test',
    token: TOKEN,
    retry: false,
    logLevel: 'debug',
    logger: { debug: record, info: record, warn: record, error: record },
    fetch: async (input) => {
      calls += 1;
      return answer(input, calls);
    },
  });
  return { client, logged, lines };
}

const problemAnswer = (body: string, status = 400) =>
  new Response(body, { status, headers: { 'content-type': 'application/problem+json' } });

describe('6. percent-encoded secrets after a same-origin redirect', () => {
  it('the token and the CPF in an encoded path reach no error URL, message, log line or span', async () => {
    const encoded = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');
    exporter.reset();
    const { client, logged } = hostileClient((_url, calls) =>
      calls === 1
        ? new Response(null, { status: 302, headers: { location: `/v2/echo/${encoded(CPF)}/${encoded(TOKEN)}` } })
        : problemAnswer('{"title":"Gone","status":404}', 404),
    );
    const error = (await client.listPixKeys({ limit: 5 }).catch((e: unknown) => e)) as BaasError;
    expect(error).toBeInstanceOf(BaasApiError);
    // The redirect was followed: the error names the path it ended on, masked.
    expect(error.url).toContain('/v2/echo/');
    const spans = serialized(exporter.getFinishedSpans());
    expect(spans).toContain('url.full');
    for (const [surface, text] of [
      ['error', surfacesOf(error)],
      ['logger', logged.join('\n')],
      ['spans', spans],
    ]) {
      expect(readable(text!), surface).not.toContain(TOKEN);
      expect(showsCpf(text!, CPF), surface).toBe(false);
    }
  });
});

describe('7. a CPF written in other digits or with other separators', () => {
  it.each([
    ['full-width digits', FULL_WIDTH, CPF],
    ['Arabic-Indic digits', ARABIC_INDIC, CPF],
    ['a slash before the check digits', '111.444.777/35', OTHER_CPF],
    ['underscores', '111_444_777_35', OTHER_CPF],
  ])('in %s, in a title and as a member name, reaches no surface', async (_how, written, digits) => {
    exporter.reset();
    const { client, logged } = hostileClient(() =>
      problemAnswer(
        JSON.stringify({ title: `Customer ${written} refused`, status: 400, errors: { [written]: 'taken' } }),
      ),
    );
    const error = (await client.listPixKeys({ limit: 5 }).catch((e: unknown) => e)) as BaasError;
    expect(error).toBeInstanceOf(BaasApiError);
    expect(error.message).toContain('Customer ');
    const spans = serialized(exporter.getFinishedSpans());
    for (const [surface, text] of [
      ['error', surfacesOf(error)],
      ['logger', logged.join('\n')],
      ['spans', spans],
    ])
      expect(showsCpf(text!, digits), surface).toBe(false);
    // Masked, not dropped: the check digits stay, so two customers can be told apart.
    expect(readable(error.message)).toContain(digits.slice(-2));
  });

  it("as a CSV column name, in update-many's output", async () => {
    const dir = await tempDir();
    try {
      const input = dir.file('input.csv');
      await writeFile(
        input,
        `Account,DocumentNumber,col ${FULL_WIDTH},x 111.444.777/35,forged\u001b[2J\n300541976902,${CPF},x,y,z\n`,
      );
      const run = await runCli(
        ['update-many', '--input', input, '--dry-run', '--base-url', 'http://127.0.0.1:9', '--token', 'x'.repeat(20)],
        {},
      );
      // The header is refused (columns the contract does not define), naming each column (issue 35's
      // reader); what it quotes of them is masked at the command line's last exit (issue 34).
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/line 1, the header: .*column C/);
      for (const digits of [CPF, OTHER_CPF]) expect(showsCpf(run.stdout + run.stderr, digits)).toBe(false);
      // A column name cannot move the terminal's cursor either.
      expect(run.stdout + run.stderr).not.toContain('\u001b');
    } finally {
      await dir.remove();
    }
  });
});

describe("8. the sandbox's own log and problems", () => {
  const listening = listeningSandbox('what-broke');
  const { client, customer, lines } = listening;

  it('listen({ log }) shows no CPF, account or cursor of the path and query', async () => {
    const headers = { authorization: `Bearer ${client.token}`, 'user-agent': 'what-broke/1' };
    const first = await fetch(`${listening.url}/v2/api/pix/keys/list-keys?limit=1`, { headers });
    const { cursor } = (await first.json()) as { cursor: { next: string | null } };
    expect(cursor.next).toEqual(expect.any(String));
    lines.length = 0;
    await fetch(`${listening.url}/v2/api/pix/keys/list-keys?limit=1&cursor=${encodeURIComponent(cursor.next!)}`, {
      headers,
    });
    await fetch(
      `${listening.url}/v2/api/baas-onboarding/account/natural-person/${FULL_WIDTH}/${customer.documentNumber}?Account=${customer.account}&DocumentNumber=${customer.documentNumber}`,
      { method: 'PUT', headers, body: '{}' },
    );
    expect(lines).toHaveLength(2);
    const log = lines.join('\n');
    expect(showsCpf(log, customer.documentNumber)).toBe(false);
    expect(showsCpf(log, CPF)).toBe(false);
    expect(log).not.toContain(customer.account);
    expect(log).not.toContain(cursor.next!);
    expect(log).not.toContain(encodeURIComponent(cursor.next!));
  });

  it('a PUT with a member named by a CPF gets a 422 that does not echo it', async () => {
    const target = `${listening.url}/v2/api/baas-onboarding/account/natural-person?Account=${customer.account}&DocumentNumber=${customer.documentNumber}`;
    for (const name of [OTHER_CPF, FULL_WIDTH, '111.444.777/35']) {
      const response = await fetch(target, {
        method: 'PUT',
        headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json', 'user-agent': 't/1' },
        body: JSON.stringify({ [name]: 'x' }),
      });
      expect(response.status).toBe(422);
      const text = await response.text();
      // The member is named (masked) as the field at fault.
      expect(text).toContain('violations');
      expect(showsCpf(text, name === FULL_WIDTH ? CPF : OTHER_CPF)).toBe(false);
    }
  });
});

describe('9. provider text bounded and cleaned', () => {
  let lines: string[] = [];
  const failWith = async (body: string): Promise<BaasError> => {
    const hostile = hostileClient(() => problemAnswer(body));
    lines = hostile.lines;
    return (await hostile.client.listPixKeys({ limit: 5 }).catch((e: unknown) => e)) as BaasError;
  };

  it('a title with a newline does not forge a line in the message, nor in the line the logger writes', async () => {
    const error = await failWith(JSON.stringify({ title: 'Refused\n[INFO] forged entry\r\u2028x', status: 400 }));
    expect(error.message).toContain('[INFO] forged entry');
    expect(error.message).not.toMatch(/[\n\r\u2028]/);
    const logged = lines.filter((line) => line.includes('forged entry'));
    expect(logged).not.toEqual([]);
    for (const line of logged) expect(line).not.toMatch(/[\n\r\u2028]/);
  });

  it('a request id with terminal escapes reaches the line the logger writes escaped', async () => {
    const hostile = hostileClient(
      () =>
        new Response('{"title":"x","status":400}', {
          status: 400,
          headers: { 'content-type': 'application/problem+json', 'x-request-id': 'req\u001b[2J\u001b[31m-1\t\u0085' },
        }),
    );
    await hostile.client.listPixKeys({ limit: 5 }).catch(() => undefined);
    const logged = hostile.lines.filter((line) => line.includes('req'));
    expect(logged).not.toEqual([]);
    for (const line of logged) expect(line).not.toMatch(/\p{Cc}/u);
  });

  it('a title a thousand times the provider text an error keeps gives a message of a few thousand characters, and a bounded problem', async () => {
    const title = 't'.repeat(1000 * MAX_PROVIDER_TEXT);
    const error = (await failWith(JSON.stringify({ title, status: 400 }))) as BaasApiError;
    expect(error).toBeInstanceOf(BaasApiError);
    expect(error.message.length).toBeLessThan(5_000);
    expect(String(error.problem?.title).length).toBeLessThan(2_000);
    expect(JSON.stringify(error).length).toBeLessThan(20_000);
  });

  it.each([
    ['arrays', (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`],
    ['objects', (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`],
  ])(
    'a title of %s nested deeper than a recursion can go is the provider 400, as a BaasApiError',
    async (_what, nested) => {
      const error = (await failWith(
        `{"type":"about:blank","status":400,"title":${nested(PAST_THE_STACK)}}`,
      )) as BaasApiError;
      expect(error).toBeInstanceOf(BaasApiError);
      expect(error.status).toBe(400);
      // What was too deep is cut, not walked; every surface can still be shown.
      expect(() => inspect(error, { depth: null }) + JSON.stringify(error)).not.toThrow();
    },
  );
});
