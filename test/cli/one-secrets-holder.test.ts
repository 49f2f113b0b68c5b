// The command line's one holder of secrets: every line, report and journal of verify, update-many,
// export-keys and docs --serve is built through the Secrets the run's client made (clientSecrets),
// never through a list of the command line's own. Three ways this is held:
// - the holder a run gets (`credentials.secretsOf(client)`) is the client's: it masks a token the client
//   was given even after the token source has forgotten it (the token died), which a list rebuilt
//   from the source's secrets would not;
// - a hostile provider and token endpoint echo the token, the client secret and the CPF (form-encoded,
//   JSON-escaped, in other digits): none reaches update-many's or export-keys' stdout, stderr, --report
//   or --journal;
// - no module of the command line or of verify masks with a list of its own or builds a second holder
//   (read from the sources with the repository's lexer).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { credentialsFrom } from '../../src/cli/connection/credentials.js';
import { main } from '../../src/cli/main.js';
import { createBaasClient } from '../../src/client/baas-client.js';
import { clientSecrets } from '../../src/redact.js';
import { listen } from '../../src/sandbox/listen.js';
import type { RunningSandbox } from '../../src/sandbox/sandbox.js';
import { closing, tokenize } from '../../scripts/lib/source-tokens.mjs';
import { capture } from './in-process.js';
import { tempDir } from './batch/harness.js';

const SECRET = 'client secret/with+plus&amp-0815';
const CLIENT_ID = 'hostile-client-id';
// A CPF whose check digits hold (529.982.247-25), as the lines carry it.
const CPF = '52998224725';
const ACCOUNT = '123456789012';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("the holder a run masks through is its client's", () => {
  it('masks a token the client was given after its source forgot it (the token died)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let issued = 0;
    vi.stubGlobal('fetch', async () => {
      issued += 1;
      return Response.json({
        access_token: `rotating-token-${issued}-never-shown`,
        token_type: 'Bearer',
        expires_in: 60,
      });
    });
    const credentials = credentialsFrom(
      { 'token-url': 'http://127.0.0.1:9/token', 'client-id': CLIENT_ID },
      { BAAS_CLIENT_SECRET: SECRET },
    );
    const client = createBaasClient({
      baseUrl: 'http://127.0.0.1:9',
      token: credentials.token!,
      fetch: async () => Response.json({ type: 'about:blank', title: 'Not Found', status: 404 }, { status: 404 }),
      retry: { maxAttempts: 1 },
    });
    await client.listPixKeys({}).catch(() => undefined);
    const first = 'rotating-token-1-never-shown';
    // Past the first token's life: the source no longer lists it; the client still holds it.
    vi.setSystemTime(Date.now() + 61_000);
    await client.listPixKeys({}).catch(() => undefined);
    expect(issued).toBe(2);
    expect(credentials.secretsOf().values()).not.toContain(first);
    const run = credentials.secretsOf(client);
    expect(run.values()).toEqual(expect.arrayContaining([...clientSecrets(client).values()]));
    expect(run.values()).toContain(first);
    expect(run.message(`echoed: ${first} and ${SECRET}`)).toBe('echoed: [REDACTED] and [REDACTED]');
    await client.close();
    await credentials.close();
  });

  it('clientSecrets refuses what no createBaasClient made', () => {
    expect(() => clientSecrets({} as never)).toThrow(TypeError);
  });
});

/** Every spelling of `value` a hostile server writes: as given, form-encoded, percent-encoded, JSON-escaped. */
const spellings = (value: string): string[] => [
  value,
  new URLSearchParams({ v: value }).toString().slice(2),
  encodeURIComponent(value),
  JSON.stringify(value).slice(1, -1).replaceAll('/', '\\/'),
];
// The CPF in other digits and with other separators between them.
const cpfSpellings = [
  CPF,
  '529.982.247-25',
  '٥٢٩٩٨٢٢٤٧٢٥',
  [...CPF].join('\u200b'),
  [...CPF].map((digit) => String.fromCodePoint(0xff10 + Number(digit))).join(''),
];

describe('a hostile provider and token endpoint, through the command line', () => {
  let server: RunningSandbox;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let issued = 0;
  const tokens: string[] = [];
  const echo = () => [...tokens.flatMap(spellings), ...spellings(SECRET), ...cpfSpellings].join(' | ');

  beforeAll(async () => {
    server = await listen(
      async (request) => {
        const url = new URL(request.url);
        if (url.pathname === '/token') {
          issued += 1;
          const token = `hostile-token-${issued}-never-shown`;
          tokens.push(token);
          // A short life: every line asks again, so the run holds many tokens.
          return Response.json({ access_token: token, token_type: 'Bearer', expires_in: 1 });
        }
        const said = echo();
        return new Response(
          JSON.stringify({
            type: 'about:blank',
            title: `Refused ${said}`,
            status: 422,
            detail: said,
            violations: [{ property: '/socialName', reason: said }],
          }),
          { status: url.pathname.includes('pix') ? 400 : 422, headers: { 'content-type': 'application/problem+json' } },
        );
      },
      { port: 0 },
    );
    dir = await tempDir();
  });
  afterAll(async () => {
    await server?.stop();
    await dir?.remove();
  });

  const flags = () => ['--base-url', server.url, '--token-url', `${server.url}/token`, '--client-id', CLIENT_ID];
  const env = { BAAS_CLIENT_SECRET: SECRET };

  /** Each secret that shows in `text`, in any spelling the server wrote it. */
  function leaks(text: string): string[] {
    const found = [...tokens.flatMap(spellings), ...spellings(SECRET)].filter((value) => text.includes(value));
    // Eleven digits in a row once the text is read as digits (any script) without what stands between them.
    const digits = text
      .normalize('NFKC')
      .replace(/\p{Nd}/gu, (d) => String(Number.parseInt(d, 10) || d.codePointAt(0)! % 16));
    if (digits.replace(/[^0-9]/g, '').includes(CPF)) found.push('the CPF');
    return found;
  }

  it('update-many: nothing on stdout, stderr, --report or --journal', async () => {
    // The tokens of this run only: another run's are no secret this run's client holds.
    tokens.length = 0;
    const input = dir.file('in.jsonl');
    const lines = Array.from({ length: 12 }, (_, i) =>
      JSON.stringify({ account: ACCOUNT, documentNumber: CPF, body: { socialName: `Ana ${i}` } }),
    );
    await writeFile(input, `${lines.join('\n')}\n`);
    const report = dir.file('update-report.json');
    const journal = dir.file('update.journal');
    const io = capture();
    const code = await main(
      ['update-many', '--input', input, ...flags(), '--report', report, '--journal', journal],
      COMMANDS,
      { ...io, env },
    );
    expect(code).toBe(1);
    expect(tokens.length).toBeGreaterThan(0);
    // The failure list was printed (each line's provider text, masked).
    expect(io.stderr.join('\n')).toMatch(/line 1: HTTP 422 /);
    for (const [surface, text] of [
      ['stdout', io.stdout.join('\n')],
      ['stderr', io.stderr.join('\n')],
      ['report', await readFile(report, 'utf8')],
      ['journal', await readFile(journal, 'utf8')],
    ] as const)
      expect(leaks(text), surface).toEqual([]);
  });

  it('export-keys: nothing on stdout, stderr, --report or --journal', async () => {
    tokens.length = 0;
    const report = dir.file('export-report.json');
    const journal = dir.file('export.journal');
    const io = capture();
    const code = await main(
      ['export-keys', '--out', dir.file('keys.jsonl'), ...flags(), '--report', report, '--journal', journal],
      COMMANDS,
      { ...io, env },
    );
    expect(code).not.toBe(0);
    expect(tokens.length).toBeGreaterThan(0);
    expect(io.stderr.join('\n')).toMatch(/export-keys: /);
    const files = await readdir(dir.path);
    const written = await Promise.all(
      [report, journal].filter((path) => files.includes(path.split('/').at(-1)!)).map((path) => readFile(path, 'utf8')),
    );
    for (const [surface, text] of [
      ['stdout', io.stdout.join('\n')],
      ['stderr', io.stderr.join('\n')],
      ...written.map((text, i) => [`file ${i}`, text] as const),
    ] as const)
      expect(leaks(text), surface).toEqual([]);
  });
});

describe('no second holder in the command line or verify', () => {
  // The masking functions of src/redact.ts that take a list of secrets: called by these modules only
  // through a Secrets (its methods), never with a list of their own.
  const TAKES_SECRETS = new Set([
    'redactText',
    'redactMessage',
    'redactBounded',
    'redactJson',
    'redactUrl',
    'redactHeaders',
    'redactedCause',
    'redactCredentials',
  ]);

  async function sources(folder: string): Promise<string[]> {
    const entries = await readdir(folder, { recursive: true, withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => join(entry.parentPath, entry.name));
  }

  it('masks with a list nowhere, and makes no Secrets of its own', async () => {
    const found: string[] = [];
    for (const file of [...(await sources('src/cli')), ...(await sources('src/verify'))]) {
      const tokens = tokenize(await readFile(file, 'utf8'));
      tokens.forEach((token, i) => {
        const next = tokens[i + 1]?.text;
        if (token.text === 'Secrets' && next === '.' && tokens[i + 2]?.text === 'of') found.push(`${file}: Secrets.of`);
        // A command that has a client masks through the client's holder: `secretsOf(client)`, never the
        // holder without one (verify's, which sends without a client; the credentials' own use).
        if (
          token.text === 'secretsOf' &&
          next === '(' &&
          tokens[i + 2]?.text === ')' &&
          file.startsWith('src/cli/') &&
          !file.endsWith('connection/credentials.ts')
        )
          found.push(`${file}:${token.line} secretsOf() without the client`);
        if (token.type !== 'name' || !TAKES_SECRETS.has(token.text) || next !== '(') return;
        // A second argument at the call's own depth is a list of secrets.
        const end = closing(tokens, i + 1);
        let depth = 0;
        for (let j = i + 1; j < end; j += 1) {
          const { type, text } = tokens[j]!;
          if (type !== 'punct') continue;
          if (text === '(' || text === '[' || text === '{') depth += 1;
          else if (text === ')' || text === ']' || text === '}') depth -= 1;
          else if (text === ',' && depth === 1 && j + 1 < end) {
            found.push(`${file}:${token.line} ${token.text}(…, secrets)`);
            break;
          }
        }
      });
    }
    expect(found).toEqual([]);
  });
});
