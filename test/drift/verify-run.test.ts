// A whole verify run in process (runVerify and the command line's main) against an injected fetch:
// the report's fields, the exit status for each outcome, what is printed where, the report file,
// and that no token or CPF reaches any output. The table's words are pinned in verify-report.test.ts;
// here the summary line is read for its outcome and counts.
import { BASE_URL_REQUIRED } from '../../src/cli/connection/base-url.js';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { usageLine } from '../../src/cli/help.js';
import { verify } from '../../src/cli/verify.js';
import { staticToken } from '../../src/cli/connection/credentials.js';
import { runVerify } from '../../src/verify/run.js';
import { exampleValue } from '../support/fixtures.js';
import { CHECK, summaryOf } from './check-names.js';
import { fakeService, problemReply, SERVICE_TOKEN, type Kind, type Reply, type SeenRequest } from './verify-service.js';
import { main, parseVerifyArgs, writeFlags } from './verify-cli.js';

const CPF = '52998224725';
const BASE = 'http://127.0.0.1:9/gw';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verify-run-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  // Spies first: one set on a faked setTimeout, restored after the fake is gone, would put the fake back.
  vi.restoreAllMocks();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const options = (extra: string[] = []) => parseVerifyArgs(['--base-url', BASE, '--token', SERVICE_TOKEN, ...extra]);

describe('runVerify', () => {
  it('on a conformant service: the report names tool, contract, masked base URL, start, budgets, every check and the counts', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-04T05:06:07.890Z'));
    const service = fakeService();
    const clock = [100, 1334.6];
    const report = await runVerify(parseVerifyArgs(['--base-url', `${BASE}/${CPF}`, '--token', SERVICE_TOKEN]), {
      fetch: service.fetch,
      now: () => clock.shift() ?? 1334.6,
    });
    expect(report).toEqual({
      tool: 'baas-pix-contract verify 1.0.0',
      contractVersion: '1.0.0',
      baseUrl: 'http://127.0.0.1:9/gw/*********25',
      credentials: 'token',
      startedAt: '2026-03-04T05:06:07.890Z',
      readOnly: true,
      budgets: { requests: { used: 4, limit: 12, retriesAfterWait: 0 }, timeMs: { used: 1235, limit: 120_000 } },
      checks: [
        expect.objectContaining({ check: 'list-keys page 1', verdict: 'ok' }),
        expect.objectContaining({ check: 'list-keys page 2', verdict: 'ok' }),
        expect.objectContaining({ check: CHECK.lastPage, verdict: 'held' }),
        expect.objectContaining({ check: CHECK.noToken, verdict: 'ok' }),
        expect.objectContaining({ check: CHECK.badLimit, verdict: 'ok' }),
        expect.objectContaining({ check: CHECK.requestId, verdict: 'held', seen: expect.stringContaining('4 of 4') }),
        expect.objectContaining({ check: 'rate-limit headers', verdict: 'not-seen' }),
      ],
      drifted: false,
      counts: { ok: 4, drift: 0, held: 2, 'not-seen': 1, error: 0 },
    });
    expect(service.requests.map((r) => r.url.pathname.endsWith('/list-keys'))).toEqual([true, true, true, true]);
  });

  it('a token in the base URL is masked in the report', async () => {
    const service = fakeService();
    const report = await runVerify(
      parseVerifyArgs(['--base-url', `${BASE}/${SERVICE_TOKEN}`, '--token', SERVICE_TOKEN]),
      { fetch: service.fetch },
    );
    expect(report.baseUrl).not.toContain(SERVICE_TOKEN);
    expect(report.baseUrl).toBe('http://127.0.0.1:9/gw/[REDACTED]');
  });

  it("counts drift, and sends the write last: the body checked by the client's pre-flight rule, as JSON", async () => {
    const bodyFile = join(dir, 'update.json');
    await writeFile(bodyFile, '{"email":"maria@example.com"}\n');
    const service = fakeService((kind) =>
      kind === 'bad-limit'
        ? { status: 200, headers: { 'content-type': 'application/json' }, body: exampleValue('CompletePage') }
        : undefined,
    );
    const report = await runVerify(
      options(['--allow-writes', '--account', '300541976902', '--document-number', CPF, '--body', bodyFile]),
      { fetch: service.fetch },
    );
    expect(report.readOnly).toBe(false);
    expect(report.checks.map((c) => [c.check, c.verdict])).toEqual([
      ['list-keys page 1', 'ok'],
      ['list-keys page 2', 'ok'],
      [CHECK.lastPage, 'held'],
      [CHECK.noToken, 'ok'],
      [CHECK.badLimit, 'drift'],
      [CHECK.write, 'ok'],
      [CHECK.requestId, 'not-seen'],
      ['rate-limit headers', 'not-seen'],
    ]);
    expect(report.drifted).toBe(true);
    expect(report.counts).toEqual({ ok: 4, drift: 1, held: 1, 'not-seen': 2, error: 0 });
    expect(service.requests.at(-1)).toMatchObject({ method: 'PUT', body: '{"email":"maria@example.com"}' });
  });

  it('a body file it cannot read fails the run before anything is sent', async () => {
    const service = fakeService();
    const missing = join(dir, 'missing.json');
    await expect(
      runVerify(options(['--allow-writes', '--account', '1', '--document-number', CPF, '--body', missing]), {
        fetch: service.fetch,
      }),
    ).rejects.toThrow(/ENOENT/);
    expect(service.requests).toEqual([]);
  });

  it("sends through the credentials' own fetch (a client certificate) when none is injected, else the global fetch", async () => {
    const own = fakeService();
    const report = await runVerify({ ...options(), credentials: { ...staticToken(SERVICE_TOKEN), fetch: own.fetch } });
    expect(own.requests).toHaveLength(4);
    expect(report.drifted).toBe(false);
    expect(report.budgets.timeMs.used).toBeGreaterThanOrEqual(0);

    const global = fakeService();
    vi.stubGlobal('fetch', global.fetch);
    await runVerify(options());
    expect(global.requests).toHaveLength(4);
  });

  it('waits out Retry-After on the real clock when no wait is injected', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    let first = true;
    const service = fakeService((kind) => {
      if (kind !== 'page1' || !first) return undefined;
      first = false;
      return problemReply(429, 'RateLimited', { 'retry-after': '2' });
    });
    let done = false;
    const run = runVerify(options(['--pages', '1']), { fetch: service.fetch }).then((report) => {
      done = true;
      return report;
    });
    // (vi.waitFor would move the fake clock itself.)
    while (vi.getTimerCount() === 0) await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(1_999);
    expect(service.requests).toHaveLength(1);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const report = await run;
    expect(report.budgets.requests).toEqual({ used: 4, limit: 8, retriesAfterWait: 1 });
    expect(report.checks[0]).toMatchObject({ check: 'list-keys page 1', verdict: 'ok' });
  });
});

/** main with captured output and the service as its fetch. */
async function runMain(
  argv: string[],
  reply?: (kind: Kind, request: SeenRequest, index: number) => Reply | undefined,
  fetch?: typeof globalThis.fetch,
) {
  const service = fakeService(reply);
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    env: {},
    fetch: fetch ?? (service.fetch as typeof globalThis.fetch),
  });
  return { code, out, err, requests: service.requests };
}

describe("runVerify's wait on Retry-After (the transport's one reading)", () => {
  /** Lets the run's pending promises settle without moving the faked clock (setImmediate is not faked). */
  const settle = async (until: () => boolean) => {
    for (let turn = 0; turn < 1_000 && !until(); turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(until()).toBe(true);
  };

  it('a read answered 429 with "Retry-After: 1.5" is sent again after 1.5 s, not before (it was at once: 1.5 read as a date in 2001)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const armed = vi.spyOn(globalThis, 'setTimeout');
    const service = fakeService((kind, _request, index) =>
      kind === 'page1' && index === 0 ? problemReply(429, 'RateLimited', { 'retry-after': '1.5' }) : undefined,
    );
    const running = runVerify(options(), { fetch: service.fetch });
    // The retry loop's own wait (no injected one) arms the wait the answer asked for.
    await settle(() => armed.mock.calls.some(([, ms]) => ms === 1_500));
    expect(service.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_499);
    expect(service.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await settle(() => service.requests.length >= 2);
    const report = await running;
    expect(report.budgets.requests.retriesAfterWait).toBe(1);
    expect(report.checks[0]).toMatchObject({ check: 'list-keys page 1', verdict: 'ok' });
  });
});

describe('main (the command line)', () => {
  it('no drift: exit 0, the table on stdout, nothing on stderr; the JSON report written with a final newline', async () => {
    const reportFile = join(dir, 'ok.json');
    const { code, out, err } = await runMain(['--base-url', BASE, '--token', SERVICE_TOKEN, '--report', reportFile]);
    expect(code).toBe(0);
    expect(err).toEqual([]);
    expect(out).toHaveLength(3);
    // First, before anything is sent: where, and the kind of credential (never the token).
    expect(out[0]!.startsWith(`verify ${BASE} `)).toBe(true);
    expect(out[0]).toMatch(/bearer token$/);
    expect(out[1]!.split('\n')[0]!.split(/ +/)).toEqual(['check', 'expected', 'seen', 'verdict']);
    expect(summaryOf(out[1]!)).toEqual({ outcome: 'no drift', counts: { ok: 4, held: 2, 'not-seen': 1 } });
    expect(out[2]).toBe(`report: ${reportFile}`);
    const text = await readFile(reportFile, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(JSON.parse(text)).toMatchObject({ drifted: false, counts: { ok: 4, held: 2, 'not-seen': 1 } });
  });

  it('drift: exit 1, even with a check that could not run', async () => {
    let r = await runMain(['--base-url', BASE, '--token', SERVICE_TOKEN], (kind) =>
      kind === 'no-token'
        ? { status: 200, headers: { 'content-type': 'application/json' }, body: exampleValue('NoKeys') }
        : undefined,
    );
    expect(r.code).toBe(1);
    expect(summaryOf(r.out.join('\n'))).toEqual({
      outcome: 'DRIFT',
      counts: { ok: 3, drift: 1, held: 1, 'not-seen': 2 },
    });
    r = await runMain(['--base-url', BASE, '--token', SERVICE_TOKEN], (kind) =>
      kind === 'no-token'
        ? { status: 404 }
        : kind === 'page2'
          ? {
              status: 401,
              headers: {
                'content-type': 'application/problem+json',
                'www-authenticate': 'Bearer error="invalid_token"',
              },
              body: exampleValue('MissingToken'),
            }
          : undefined,
    );
    expect(r.code).toBe(1);
    expect(summaryOf(r.out.join('\n'))).toEqual({
      outcome: 'DRIFT',
      counts: { ok: 2, drift: 1, 'not-seen': 3, error: 1 },
    });
  });

  it('no drift but a check could not run: exit 2, and the table says INCOMPLETE', async () => {
    const { code, out } = await runMain(['--base-url', BASE, '--token', SERVICE_TOKEN], (kind) =>
      kind === 'page1' ? problemReply(503, 'UpstreamUnavailable', { 'retry-after': '600' }) : undefined,
    );
    expect(code).toBe(2);
    const { outcome, counts } = summaryOf(out.join('\n'));
    expect(outcome).toMatch(/^INCOMPLETE \(/);
    expect(counts).toEqual({ ok: 2, held: 1, 'not-seen': 2, error: 1 });
  });

  it('a usage error: exit 2, the message and the usage on stderr, nothing sent', async () => {
    const { code, out, err, requests } = await runMain(['--token', SERVICE_TOKEN]);
    expect(code).toBe(2);
    expect(out).toEqual([]);
    expect(err).toEqual([
      usageLine(verify),
      expect.stringContaining('--help'),
      `baas-pix-contract verify: ${BASE_URL_REQUIRED}`,
    ]);
    expect(requests).toEqual([]);
  });

  it('a body file that cannot be read: a usage error naming --body and the masked path, before anything is shown', async () => {
    const missing = join(dir, `${SERVICE_TOKEN}.json`);
    const { code, out, err } = await runMain([
      '--base-url',
      BASE,
      '--token',
      SERVICE_TOKEN,
      ...writeFlags(CPF, missing, '1'),
    ]);
    expect(code).toBe(2);
    expect(out).toHaveLength(0);
    expect(err.at(-1)).toMatch(/--body .* does not exist: check the path$/);
    expect(err.at(-1)).toContain(join(dir, '[REDACTED].json'));
    expect(err.join('\n')).not.toContain(SERVICE_TOKEN);
  });

  const writeArgs = (bodyFile: string, documentNumber = CPF) => [
    '--base-url',
    BASE,
    '--token',
    SERVICE_TOKEN,
    ...writeFlags(documentNumber, bodyFile),
  ];

  it('--allow-writes with an update the contract refuses: exit 2 naming each flag and rule, nothing sent at all', async () => {
    const bodyFile = join(dir, 'bad-update.json');
    await writeFile(bodyFile, '{"email":"maria@example.com","mobile_phone":{"number":12}}');
    const { code, err, requests } = await runMain(writeArgs(bodyFile));
    expect(code).toBe(2);
    expect(requests).toEqual([]);
    const said = err.join('\n');
    expect(said).toMatch(/the update breaks the contract, so nothing was sent/);
    expect(said).toMatch(/--body at \/mobile_phone/);
    // A CPF whose check digits are wrong is refused too, naming --document-number, before anything is sent.
    const badCpf = await runMain(writeArgs(bodyFile, '52998224724'));
    expect(badCpf.code).toBe(2);
    expect(badCpf.requests).toEqual([]);
    expect(badCpf.err.join('\n')).toMatch(/--document-number.*check digits/);
    expect([...badCpf.out, ...badCpf.err].join('\n')).not.toContain('52998224724');
  });

  it.each([422, 404])(
    '--allow-writes refused by the service (%i): never OK, WRITE REFUSED with the status and problem, exit 2',
    async (status) => {
      const bodyFile = join(dir, 'update.json');
      await writeFile(bodyFile, '{"email":"maria@example.com"}');
      const { code, out, requests } = await runMain(writeArgs(bodyFile), (kind) =>
        kind === 'update'
          ? {
              status,
              headers: { 'content-type': 'application/problem+json' },
              body: { type: 'about:blank', title: 'Refused', status, detail: 'the service said no' },
            }
          : undefined,
      );
      expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
      const table = out.join('\n');
      const writeRow = table.split('\n').find((line) => line.startsWith(CHECK.write))!;
      expect(writeRow).toMatch(
        new RegExp(`${status} application/problem\\+json: refused \\(Refused: the service said no\\)`),
      );
      expect(writeRow).toMatch(/ERROR$/);
      expect(table).not.toMatch(/no drift/);
      expect(table).toMatch(
        new RegExp(`the service refused the write with ${status} \\(Refused: the service said no\\)`),
      );
      expect(table).toMatch(/^WRITE REFUSED \(the write could not be verified\): /m);
      expect(code).toBe(2);
    },
  );

  it('a report file it cannot write (its folder is missing): exit 2 before anything is sent, naming --report and the path', async () => {
    const reportFile = join(dir, 'no-such-dir', 'r.json');
    let sent = 0;
    const counting = (async () => {
      sent += 1;
      return new Response('{}');
    }) as unknown as typeof globalThis.fetch;
    const { code, err } = await runMain(
      ['--base-url', BASE, '--token', SERVICE_TOKEN, '--report', reportFile],
      undefined,
      counting,
    );
    expect(code).toBe(2);
    expect(sent).toBe(0);
    expect(err.at(-1)).toMatch(/--report .*no-such-dir\/r\.json: its folder does not exist/);
  });

  it('no token or CPF in the table, even inside an error a check reports', async () => {
    const base = `${BASE}/${SERVICE_TOKEN}/${CPF}`;
    const failing = (async (url: string) => {
      throw new Error(`connection to ${url} failed`);
    }) as unknown as typeof globalThis.fetch;
    const { code, out } = await runMain(['--base-url', base, '--token', SERVICE_TOKEN], undefined, failing);
    expect(code).toBe(2);
    const text = out.join('\n');
    expect(text).toContain('no answer (connection to');
    expect(text).toContain(`${BASE}/[REDACTED]/*********25/v2/api/pix/keys/list-keys?limit=50`);
    expect(text).not.toContain(SERVICE_TOKEN);
    expect(text).not.toContain(CPF);
  });

  it('by default: the table on stdout, errors on stderr (each with a newline), the environment from the process', async () => {
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const service = fakeService();
      vi.stubGlobal('fetch', service.fetch);
      vi.stubEnv('BAAS_TOKEN', SERVICE_TOKEN);
      expect(await main(['--base-url', BASE])).toBe(0);
      expect(service.requests[0]!.headers.authorization).toBe(`Bearer ${SERVICE_TOKEN}`);
      expect(stdout).toHaveBeenCalledTimes(2);
      const table = String(stdout.mock.calls[1]![0]);
      expect(table).toMatch(/^check .*\n$/s);
      expect(summaryOf(table.trimEnd())).toEqual({ outcome: 'no drift', counts: { ok: 4, held: 2, 'not-seen': 1 } });
      expect(await main([])).toBe(2);
      expect(stderr.mock.calls.map(([text]) => text)).toEqual([
        `${usageLine(verify)}\n`,
        expect.stringMatching(/--help.*\n$/),
        `baas-pix-contract verify: ${BASE_URL_REQUIRED}\n`,
      ]);
    } finally {
      stdout.mockRestore();
      stderr.mockRestore();
      vi.unstubAllEnvs();
    }
  });
});
