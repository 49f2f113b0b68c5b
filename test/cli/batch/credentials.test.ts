// Credentials that fail, as verify, update-many and export-keys say them: one rule for the exit status
// (2 when the command line must change first: credentials refused, a --token-url that is not a token
// endpoint; a token endpoint only failing is the run's failure), and the same words from the one
// place that makes them (src/verify/credentials.ts), the token URL's query never shown. In process,
// against a sandbox on 127.0.0.1:0 whose token URL can also be made to fail.
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/cli/commands.js';
import { main } from '../../../src/cli/main.js';
import { createSandbox } from '../../../src/sandbox/index.js';
import { listen } from '../../../src/sandbox/listen.js';
import type { RunningSandbox } from '../../../src/sandbox/sandbox.js';
import { capture } from '../in-process.js';
import { tempDir, updateLine } from './harness.js';

const sandbox = createSandbox({ clients: 1, accountsPerClient: 2, keysPerAccount: 2 });
const client = sandbox.clients[0]!;
let server: RunningSandbox;
let dir: Awaited<ReturnType<typeof tempDir>>;
let input: string;
let outputs = 0;
const freshOutput = () => {
  outputs += 1;
  return dir.file(`keys-${outputs}.jsonl`);
};

beforeAll(async () => {
  // The sandbox, and two token URLs that fail without refusing anything: a server error, and a page.
  server = await listen(
    async (request) => {
      const path = new URL(request.url).pathname;
      if (path === '/token-503') return new Response('<h1>Service Unavailable</h1>', { status: 503 });
      if (path === '/login') return new Response('<html>sign in</html>', { headers: { 'content-type': 'text/html' } });
      return sandbox.fetch(request);
    },
    { port: 0 },
  );
  dir = await tempDir();
  input = dir.file('in.jsonl');
  await writeFile(input, `${updateLine(client.accounts[0]!, { socialName: 'Ana' })}\n`);
});
afterAll(async () => {
  await server?.stop();
  await dir?.remove();
});

type Command = 'verify' | 'update-many' | 'export-keys';
const ALL: Command[] = ['verify', 'update-many', 'export-keys'];

/** Runs `command` in process with `credentials` (flags) and `env`; what it printed, both streams together. */
async function run(command: Command, credentials: string[], env: Record<string, string>) {
  const target =
    command === 'update-many' ? ['--input', input] : command === 'export-keys' ? ['--out', freshOutput()] : [];
  const io = capture();
  const code = await main([command, ...target, '--base-url', server.url, ...credentials], COMMANDS, {
    ...io,
    env: { BAAS_TOKEN: '', BAAS_CLIENT_SECRET: '', ...env },
  });
  return { code, text: [...io.stdout, ...io.stderr].join('\n') };
}

const clientCredentials = (tokenUrl: string) => ({
  flags: ['--token-url', tokenUrl, '--client-id', client.clientId],
  env: { BAAS_CLIENT_SECRET: client.clientSecret },
});

/** The line saying what happened to the token request, from "the token URL" on (each command puts its name before it). */
const tokenUrlLine = (text: string) => text.match(/the token URL .*?--token-url/)?.[0];

describe('credentials refused: one exit status in every command', () => {
  it.each([
    [
      'a static token the API answers 401',
      [] as string[],
      { BAAS_TOKEN: 'sbx_not_a_token_0123456789' },
      ['--token', 'BAAS_TOKEN'],
    ],
    [
      'a wrong client secret (token endpoint 401 invalid_client)',
      clientCredentials('').flags,
      { BAAS_CLIENT_SECRET: 'sbx_secret_wrong_0123456789' },
      ['--client-id', 'BAAS_CLIENT_SECRET', '401 invalid_client'],
    ],
  ])(
    '%s: verify, update-many and export-keys all exit 2 and name the credentials',
    async (_what, flags, env, named) => {
      const credentialFlags = flags.map((flag) => (flag === '' ? `${server.url}/oauth/token` : flag));
      const results = await Promise.all(ALL.map((command) => run(command, credentialFlags, env)));
      expect(results.map((result) => result.code)).toEqual([2, 2, 2]);
      for (const { text } of results) {
        // The last line saying so: what to do (verify's table says it in a row too).
        const said = text
          .split('\n')
          .filter((line) => line.includes('refused the'))
          .at(-1);
        for (const name of named) expect(said).toContain(name);
        expect(text).not.toContain(Object.values(env)[0]);
      }
    },
  );
});

describe('a --token-url that is not a token endpoint, or that fails', () => {
  it.each([
    ['404', '/oauth/tokn', [2, 2, 2], 'NO TOKEN'],
    ['an HTML page (200)', '/login', [2, 2, 2], 'NO TOKEN'],
    ['503', '/token-503', [2, 1, 1], 'INCOMPLETE'],
  ])(
    '%s: the same words in every command, naming the URL (query hidden) and --token-url, never "refused"',
    async (what, path, codes, verdict) => {
      const { flags, env } = clientCredentials(`${server.url}${path}?tenant=q-s3cr3t-value`);
      const results = await Promise.all(ALL.map((command) => run(command, flags, env)));
      // verify could not check (2); the batch commands: 2 when --token-url must change, 1 when the endpoint only failed.
      expect(results.map((result) => result.code)).toEqual(codes);
      // verify's verdict: no token from a URL that is not the endpoint; incomplete when the endpoint only failed.
      expect(results[0]!.text).toMatch(new RegExp(`^${verdict}`, 'm'));
      const lines = results.map((result) => tokenUrlLine(result.text));
      expect(new Set(lines).size).toBe(1);
      const line = lines[0]!;
      expect(line).toContain(`${server.url}${path}?tenant=REDACTED`);
      expect(line).toContain(what.match(/[0-9]{3}/)![0]);
      expect(line).toContain('--token-url');
      // Each batch command prints it as its own line, after its name.
      for (const [index, command] of ALL.entries())
        if (command !== 'verify') expect(results[index]!.text).toMatch(new RegExp(`^${command}: the token URL `, 'm'));
      for (const { text } of results) {
        expect(text).not.toContain('q-s3cr3t-value');
        expect(text).not.toContain(client.clientSecret);
        expect(text).not.toMatch(/refused the (client )?credentials/);
      }
    },
  );
});
