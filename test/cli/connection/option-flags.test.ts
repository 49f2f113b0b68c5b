// The command line names its flags, not the library's options: a refusal of clientCredentials or of the
// `tls` option (a BaasOptionError) is mapped from its `option` to the flag that set it, and its `rule`
// kept, never read out of the message text.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flagRefusal, type CredentialFlags } from '../../../src/cli/connection/credentials.js';
import { optionError } from '../../../src/option-rules.js';
import { credentialRefusal as refusal } from '../../support/credential-refusal.js';

const TOKEN_URL = 'https://auth.example/oauth/token';
const SECRET = 'client-secret-0815-never-shown';

let dir: string;
const file = (name: string) => join(dir, name);
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'option-flags-'));
  await writeFile(file('empty.pem'), '');
  await writeFile(file('some.pem'), 'contents of some.pem');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('flagRefusal', () => {
  it.each([
    ['tokenUrl', '--token-url'],
    ['clientId', '--client-id'],
    ['clientSecret', 'the client secret (BAAS_CLIENT_SECRET or --client-secret)'],
    ['scope', '--scope'],
    ['authMethod', '--auth-method'],
    ['tls.cert', '--cert'],
    ['tls.key', '--key'],
    ['tls.pfx', '--pfx'],
    ['tls.ca', '--ca'],
    ['tls.passphrase', 'BAAS_TLS_PASSPHRASE'],
    // By the prefix rule: the same settings given to clientCredentials, and a member's index.
    ['clientCredentials.tls.passphrase', 'BAAS_TLS_PASSPHRASE'],
    ['clientCredentials.tls.cert', '--cert'],
    ['clientCredentials.tls', 'a client certificate (--cert and --key, --pfx, or --ca)'],
    ['clientCredentials.tokenUrl', '--token-url'],
    ['tls.ca[1]', '--ca'],
    ['clientCredentials.tls.ca[0]', '--ca'],
  ])('names %s as %s, from the option and the rule, not the message', (option, flag) => {
    const error = Object.assign(optionError({ where: 'clientCredentials', option, rule: 'breaks a rule' }), {
      message: 'words the command line never reads',
    });
    expect(flagRefusal(error).message).toBe(`${flag} breaks a rule`);
  });

  it('an option no flag sets keeps its own name and where', () => {
    const error = optionError({ where: 'clientCredentials', option: 'refreshMarginSeconds', rule: 'breaks a rule' });
    expect(flagRefusal(error).message).toBe('clientCredentials: refreshMarginSeconds breaks a rule');
    expect(flagRefusal(optionError({ option: 'odd', rule: 'breaks a rule' })).message).toBe('odd breaks a rule');
    // A prefix alone names nothing: only a path the rule reads as an option of a flag.
    expect(flagRefusal(optionError({ option: 'tlsx.cert', rule: 'breaks a rule' })).message).toBe(
      'tlsx.cert breaks a rule',
    );
    expect(flagRefusal(optionError({ option: 'other.tls.cert', rule: 'breaks a rule' })).message).toBe(
      'other.tls.cert breaks a rule',
    );
  });

  it("a rule's own mentions of the tls option are named by their flags too", () => {
    const error = optionError({
      where: 'clientCredentials',
      option: 'clientCredentials.tls.passphrase',
      rule: 'is missing: clientCredentials.tls.key is an encrypted key',
    });
    expect(flagRefusal(error).message).toBe('BAAS_TLS_PASSPHRASE is missing: --key is an encrypted key');
  });
});

describe('credentialsFrom names the flag of what the library refused', () => {
  const client = { 'token-url': TOKEN_URL, 'client-id': 'cid' };
  it.each([
    [
      { ...client, 'client-id': 'acme\tpayments' },
      { BAAS_CLIENT_SECRET: SECRET },
      '--client-id must not contain control characters',
    ],
    [
      client,
      { BAAS_CLIENT_SECRET: `${SECRET}\u0000` },
      'the client secret (BAAS_CLIENT_SECRET or --client-secret) must not contain control characters',
    ],
    [{ ...client, scope: 'pix "keys"' }, { BAAS_CLIENT_SECRET: SECRET }, /^--scope must be scope tokens/],
    [
      { ...client, 'token-url': 'ftp://auth.example/token' },
      { BAAS_CLIENT_SECRET: SECRET },
      '--token-url must use https, not ftp:',
    ],
  ] as [CredentialFlags, Record<string, string>, string | RegExp][])('%j', (flags, env, message) => {
    const said = refusal(flags, env);
    if (typeof message === 'string') expect(said).toBe(message);
    else expect(said).toMatch(message);
    expect(said).not.toContain(SECRET);
  });

  it('an empty certificate file: the flag that named it, a credential error (a usage error), before anything is sent', () => {
    expect(refusal({ token: 'tok', cert: file('empty.pem'), key: file('some.pem') })).toBe(
      '--cert must be non-empty PEM text or bytes',
    );
    expect(refusal({ token: 'tok', ca: file('empty.pem') })).toBe('--ca must be non-empty PEM text or bytes');
    expect(refusal({ token: 'tok', pfx: file('empty.pem') })).toBe('--pfx must be non-empty PEM text or bytes');
  });
});
