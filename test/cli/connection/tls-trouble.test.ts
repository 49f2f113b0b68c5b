// A client certificate that cannot be used is the user's to fix, not the endpoint's: verify, update-many and
// export-keys run for real (main, in process) against a local HTTPS server that requires a client certificate
// (test/support/certs.ts), with an encrypted --key and no BAAS_TLS_PASSPHRASE, and with an expired --cert.
// The token request then fails on this side: the words name the flags (never "try again later"), the TLS
// reason is said once, and the exit status is 2 (the command line must change). A client certificate with a
// plain http --base-url or --token-url is refused before anything is read, naming both flags.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCerts, type TestCerts } from '../../support/certs.js';
import { type DriftServer, startDriftServer } from '../../support/drift-server.js';
import { VALID_ACCOUNT, VALID_CPF } from '../../support/fixtures.js';
import { runMain, tempDir, updateLine } from '../batch/harness.js';
import { repoRoot } from '../../../scripts/lib/paths.mjs';

const GUIDES = ['docs/guides/troubleshooting.md', 'docs/guias/troubleshooting.md'];
/** The lines of a guide's `text` blocks: the messages it quotes. */
const quoted = (path: string) =>
  [...readFileSync(join(repoRoot, path), 'utf8').matchAll(/```text\n([\s\S]*?)```/g)].flatMap(([, block]) =>
    block!.trimEnd().split('\n'),
  );

let certs: TestCerts;
let server: DriftServer;
let dir: Awaited<ReturnType<typeof tempDir>>;
let input: string;
beforeAll(async () => {
  certs = await makeTestCerts();
  server = await startDriftServer(() => {}, '/gw', { cert: certs.server.cert, key: certs.server.key, ca: certs.ca });
  dir = await tempDir();
  input = dir.file('in.jsonl');
  await writeFile(
    input,
    `${updateLine({ account: VALID_ACCOUNT, documentNumber: VALID_CPF }, { socialName: 'Ana' })}\n`,
  );
});
afterAll(async () => {
  await server?.close();
  await certs?.remove();
  await dir?.remove();
});

const SECRET = 'client-secret-tls-trouble-4711';
type Command = 'verify' | 'update-many' | 'export-keys';
const ALL: Command[] = ['verify', 'update-many', 'export-keys'];
const file = (name: string) => join(certs.dir, name);

/** `command` with client credentials at the HTTPS server's token URL and `tls` flags; both streams as one text. */
async function run(command: Command, tls: string[], env: Record<string, string> = {}, baseUrl = server.url) {
  const target =
    command === 'update-many'
      ? ['--input', input]
      : command === 'export-keys'
        ? ['--out', dir.file(`keys-${Math.random().toString(36).slice(2)}.jsonl`)]
        : [];
  const { code, stdout, stderr } = await runMain(
    [
      command,
      ...target,
      '--base-url',
      baseUrl,
      '--token-url',
      `${server.url}/oauth/token`,
      '--client-id',
      'cid',
      ...tls,
    ],
    { BAAS_CLIENT_SECRET: SECRET, ...env },
  );
  return { code, text: `${stdout}\n${stderr}` };
}

/** The line that says why no token came, from "no token from the token URL" on. */
const noTokenLine = (text: string) => text.match(/no token from the token URL .*/)?.[0];

describe('a local TLS failure of the token request: the flags to fix, exit 2, in every command', () => {
  it.each([
    [
      'an expired --cert',
      () => ['--cert', file('expired.crt'), '--key', file('expired.key'), '--ca', file('test-ca.crt')],
      ['the client certificate expired on', '(CLIENT_CERT_EXPIRED)', 'check --cert and --key (or --pfx)'],
      /expired on/g,
    ],
  ])('%s', async (_what, flags, named, reason) => {
    const results = await Promise.all(ALL.map((command) => run(command, flags())));
    expect(results.map((result) => result.code)).toEqual([2, 2, 2]);
    const lines = results.map((result) => noTokenLine(result.text));
    // The same words from the one place that makes them.
    expect(new Set(lines).size).toBe(1);
    const line = lines[0]!;
    for (const words of named) expect(line).toContain(words);
    // Said once: not the message, its code and its cause one after the other.
    expect(line.match(reason)).toHaveLength(1);
    expect(line).not.toMatch(/tls\.|clientCredentials/);
    for (const { text } of results) {
      expect(text).not.toMatch(/try again later|could not be reached/);
      expect(text).not.toContain(SECRET);
    }
    // verify's verdict: no token, nothing refused.
    expect(results[0]!.text).toMatch(/^NO TOKEN/m);
    expect(results[0]!.text).toMatch(
      /^credentials +client credentials the service accepts +no token: a local TLS failure \(CLIENT_CERT_EXPIRED\)/m,
    );
  });

  it('a refused BaasOptionError of the tls option is the same trouble (read from the cause chain)', async () => {
    const { localTlsFailure } = await import('../../../src/cli/connection/credentials.js');
    const { optionError } = await import('../../../src/option-rules.js');
    const refused = optionError({
      where: 'clientCredentials',
      option: 'clientCredentials.tls.ca[1]',
      rule: 'is not a PEM certificate',
    });
    expect(localTlsFailure(new Error('wrapped', { cause: refused }))).toEqual({
      kind: 'option',
      reason: '--ca is not a PEM certificate',
    });
    expect(localTlsFailure(optionError({ option: 'tokenUrl', rule: 'is wrong' }))).toBeUndefined();
    // A connection failure another attempt may cure is not local.
    expect(localTlsFailure({ kind: 'connection', code: 'CLIENT_CERT_REFUSED', reason: 'closed' })).toBeUndefined();
  });
});

describe('the TLS reason, said once', () => {
  it("verify with a token: each row's reason once (not the message, its code and its cause), in flag terms", async () => {
    const { code, stdout } = await runMain([
      'verify',
      '--base-url',
      server.url,
      '--token',
      'sbx_tls_trouble_token_0123456789',
      '--cert',
      file('expired.crt'),
      '--key',
      file('expired.key'),
      '--ca',
      file('test-ca.crt'),
    ]);
    expect(code).toBe(2);
    const row = stdout.split('\n').find((line) => line.startsWith('list-keys page 1'))!;
    expect(row).toMatch(
      /no answer \(TLS connection to 127\.0\.0\.1:\d+ failed: the client certificate expired on .*\(CLIENT_CERT_EXPIRED\)\)/,
    );
    expect(row.match(/expired on/g)).toHaveLength(1);
    expect(row).not.toMatch(/tls\.|clientCredentials/);
  });
});

describe('key material that cannot be used', () => {
  it.each([
    [
      'an encrypted --key without BAAS_TLS_PASSPHRASE',
      {},
      'BAAS_TLS_PASSPHRASE is missing: --key is an encrypted key; give the passphrase it was encrypted with',
    ],
    [
      'a BAAS_TLS_PASSPHRASE that does not open --key',
      { BAAS_TLS_PASSPHRASE: 'not-the-passphrase-4711' },
      'BAAS_TLS_PASSPHRASE could not be used: it does not decrypt --key (a wrong passphrase, or a damaged key); give the passphrase the key was encrypted with',
    ],
    ['a --key of another certificate', {}, '--key does not belong to --cert: '],
  ])('%s: refused up front, exit 2, in flag terms, in every command', async (what, env, words) => {
    const key = what.includes('another') ? file('stranger.key') : file('client-encrypted.key');
    for (const command of ALL) {
      const { code, text } = await run(
        command,
        ['--cert', file('client.crt'), '--key', key, '--ca', file('test-ca.crt')],
        env,
      );
      expect(code).toBe(2);
      const said = text.split('\n').find((line) => line.startsWith(`baas-pix-contract ${command}: `))!;
      expect(said).toContain(words);
      // Nothing was asked of the token endpoint: refused before any request.
      expect(text).not.toMatch(/no token from the token URL|try again later|could not be reached/);
      expect(said).not.toMatch(/tls\.|clientCredentials/);
      for (const secret of [SECRET, 'not-the-passphrase-4711', certs.passphrase]) expect(text).not.toContain(secret);
      if (command === 'update-many' && what.startsWith('an encrypted'))
        for (const guide of GUIDES) expect(quoted(guide)).toContain(said);
    }
  });
});

describe('a client certificate with plain http', () => {
  it.each([
    ['--base-url', 'http://127.0.0.1:9/gw', undefined],
    ['--token-url', undefined, 'http://127.0.0.1:9/oauth/token'],
  ])('%s on http: refused up front, exit 2, naming both flags, in every command', async (flag, baseUrl, tokenUrl) => {
    for (const command of ALL) {
      const tls = ['--cert', file('client.crt'), '--key', file('client.key')];
      const { code, text } = await run(
        command,
        tokenUrl ? [...tls, '--token-url', tokenUrl] : tls,
        {},
        baseUrl ?? server.url,
      );
      expect(code).toBe(2);
      if (command === 'update-many' && flag === '--base-url') {
        const said = text.split('\n').find((line) => line.includes('never used with'))!;
        for (const guide of GUIDES) expect(quoted(guide)).toContain(said);
      }
      expect(text).toContain(
        `--cert and --key are never used with ${flag} on plain http: a client certificate and a CA are presented only over https; give ${flag} as https://, or leave --cert and --key out`,
      );
    }
  });
});
