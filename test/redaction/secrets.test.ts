// Secrets (src/redact.ts): the one holder of a client's secrets, through which every error, event, log
// line and span text of that client is built. Each method applies the module's rule with the values
// it holds as they are at that moment, and the holder itself never shows a value.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createBaasClient } from '../../src/index.js';
import { clientSecrets, heldSecrets, MASK, MAX_PROVIDER_TEXT, Secrets, TOKENS_REMEMBERED } from '../../src/redact.js';

const TOKEN = 'tok-0123456789abcdef';
const CPF = '52998224725';

describe('Secrets: what it holds', () => {
  it('none holds no value, and still applies every rule (a CPF, a bearer credential)', () => {
    expect(Secrets.none.values()).toEqual([]);
    expect(Secrets.none.text(`${CPF} Bearer ${TOKEN}`)).toBe(`*********25 Bearer ${MASK}`);
    expect(Secrets.none.text('abcdefgh')).toBe('abcdefgh');
  });

  it('of a list keeps a copy: changing the list afterwards changes nothing', () => {
    const list = [TOKEN];
    const secrets = Secrets.of(list);
    list.push('other-secret-value');
    expect(secrets.values()).toEqual([TOKEN]);
  });

  it('of a function reads it at each use (a token source issues tokens as it goes)', () => {
    const issued: string[] = [];
    const secrets = Secrets.of(() => issued);
    expect(secrets.text(`got ${TOKEN}`)).toBe(`got ${TOKEN}`);
    issued.push(TOKEN);
    expect(secrets.text(`got ${TOKEN}`)).toBe(`got ${MASK}`);
  });

  it('of any iterable: a Set is read as its values', () => {
    expect(Secrets.of(new Set([TOKEN])).values()).toEqual([TOKEN]);
    expect(Secrets.of(() => new Set([TOKEN])).values()).toEqual([TOKEN]);
  });

  it('with adds values (the numbers a call carries) and leaves the original as it was', () => {
    const client = Secrets.of([TOKEN]);
    const call = client.with(['123.456.789-09']);
    expect(call.values()).toEqual([TOKEN, '123.456.789-09']);
    expect(client.values()).toEqual([TOKEN]);
    expect(client.with([])).toBe(client);
  });

  it('with reads the values it extends at each use', () => {
    const issued: string[] = [];
    const call = Secrets.of(() => issued).with(['x']);
    issued.push(TOKEN);
    expect(call.values()).toEqual([TOKEN, 'x']);
  });

  it('now reads the values once: what is issued later is not in it', () => {
    const issued: string[] = [TOKEN];
    let reads = 0;
    const now = Secrets.of(() => {
      reads += 1;
      return issued;
    }).now();
    issued.push('later-secret-value');
    now.text('a');
    now.text('b');
    expect(now.values()).toEqual([TOKEN]);
    expect(reads).toBe(1);
  });

  it('shows no value: JSON, String and util.inspect', () => {
    const secrets = Secrets.of([TOKEN, 'client-secret-value']);
    const forms = [
      JSON.stringify(secrets),
      JSON.stringify({ secrets }),
      String(secrets),
      inspect(secrets, { showHidden: true, depth: null }),
    ];
    for (const form of forms) {
      expect(form).not.toContain(TOKEN);
      expect(form).not.toContain('client-secret-value');
    }
    expect(JSON.stringify({ secrets })).toBe(`{"secrets":"${MASK}"}`);
  });
});

describe('Secrets: what it builds', () => {
  const secrets = Secrets.of([TOKEN]);

  it('text masks its values and every CPF', () => {
    expect(secrets.text(`echo ${TOKEN} for ${CPF}`)).toBe(`echo ${MASK} for *********25`);
  });

  it('bounded masks and bounds one piece of provider text (the bound by default and given)', () => {
    const long = `${TOKEN} ${'x'.repeat(2 * MAX_PROVIDER_TEXT)}`;
    const shown = secrets.bounded(long);
    expect(shown.startsWith(`${MASK} x`)).toBe(true);
    expect(shown).toMatch(/… \(\d+ more characters\)$/);
    expect(shown.length).toBeLessThan(MAX_PROVIDER_TEXT + 40);
    expect(secrets.bounded(`${TOKEN} tail`, 12)).toBe(`${MASK} t… (3 more characters)`);
    expect(secrets.bounded('short')).toBe('short');
  });

  it('line is bounded masked text with its control characters escaped, for one line of a log', () => {
    expect(secrets.line(`${TOKEN}\nforged line\u001b[2J`)).toBe(`${MASK}\\nforged line\\x1b[2J`);
    expect(secrets.line('abcdefghijklmnop', 4)).toBe('abcd… (12 more characters)');
  });

  it('quote masks a credential known exactly from 4 characters, where text needs 6', () => {
    const short = Secrets.of(['s3cr']);
    expect(short.quote('token_type s3cr')).toBe(`token_type ${MASK}`);
    expect(short.text('token_type s3cr')).toBe('token_type s3cr');
    expect(short.quote('a'.repeat(50), 30)).toBe(`${'a'.repeat(30)}… (20 more characters)`);
    expect(short.quote('b'.repeat(MAX_PROVIDER_TEXT + 1))).toBe(
      `${'b'.repeat(MAX_PROVIDER_TEXT)}… (1 more characters)`,
    );
  });

  it('url drops the user info and masks the values and the DocumentNumber', () => {
    expect(secrets.url(`https://user:pw@api.example/v1/${TOKEN}?DocumentNumber=${CPF}`)).toBe(
      `https://api.example/v1/${MASK}?DocumentNumber=*********25`,
    );
  });

  it('json masks every string of a structure, member names too', () => {
    expect(secrets.json({ [TOKEN]: [`${CPF}`, 1, null] })).toEqual({ [MASK]: ['*********25', 1, null] });
  });

  it('headers masks a credential header whole and the values elsewhere', () => {
    expect(secrets.headers({ Authorization: `Bearer ${TOKEN}`, 'X-Echo': TOKEN })).toEqual({
      authorization: `Bearer ${MASK}`,
      'x-echo': MASK,
    });
  });

  it('cause is a copy of an error with its message and stack masked, its name kept', () => {
    const error = new TypeError(`failed with ${TOKEN}`);
    const copy = secrets.cause(error);
    expect(copy).not.toBe(error);
    expect(copy.name).toBe('TypeError');
    expect(copy.message).toBe(`failed with ${MASK}`);
    expect(copy.stack).not.toContain(TOKEN);
    expect(secrets.cause(`thrown ${TOKEN}`).message).toBe(`thrown ${MASK}`);
  });
});

describe('heldSecrets: the holder a client (or verify) keeps for its token source', () => {
  it('a fixed token is held at once; no token holds nothing', () => {
    expect(heldSecrets('fixed-token-0815').secrets.values()).toEqual(['fixed-token-0815']);
    expect(heldSecrets(undefined).secrets.values()).toEqual([]);
  });

  it("a source's own secrets, read at each use, then the tokens it gave; a source without secrets() gives only those", () => {
    const own: string[] = [];
    const source = Object.assign(() => 'unused', { secrets: () => own });
    const holder = heldSecrets(source);
    holder.remember('token-a');
    expect(holder.secrets.values()).toEqual(['token-a']);
    own.push('client-secret');
    expect(holder.secrets.values()).toEqual(['client-secret', 'token-a']);
    const bare = heldSecrets(Object.assign(() => 'unused', {}));
    bare.remember('token-b');
    expect(bare.secrets.values()).toEqual(['token-b']);
  });

  it(`remembers each token once, the latest ${TOKENS_REMEMBERED}`, () => {
    const holder = heldSecrets(undefined);
    holder.remember('token-0');
    holder.remember('token-0');
    expect(holder.secrets.values()).toEqual(['token-0']);
    for (let i = 1; i <= TOKENS_REMEMBERED; i += 1) holder.remember(`token-${i}`);
    const held = holder.secrets.values();
    expect(held).toHaveLength(TOKENS_REMEMBERED);
    expect([held[0], held.at(-1)]).toEqual(['token-1', `token-${TOKENS_REMEMBERED}`]);
  });
});

describe('Secrets.credentials: an answer relayed whole', () => {
  it('masks the values as credentials known exactly (from 4 characters), unbounded', () => {
    const long = 'x'.repeat(5 * MAX_PROVIDER_TEXT);
    expect(Secrets.of(['abcd']).credentials(`k abcd ${long}`)).toBe(`k ${MASK} ${long}`);
  });
});

describe('clientSecrets: the holder a client was made with', () => {
  it("is the client's own: it masks the client's token, and message() masks and escapes a line", () => {
    const client = createBaasClient({
      baseUrl: 'https://provider.test',
      token: TOKEN,
      fetch: async () => Response.json({}),
    });
    const held = clientSecrets(client);
    expect(held).toBe(clientSecrets(client));
    expect(held.values()).toContain(TOKEN);
    expect(held.message(`echoed ${TOKEN} and ${CPF}\nforged`)).toBe(`echoed ${MASK} and *********25\\nforged`);
  });

  it('refuses what no createBaasClient made', () => {
    expect(() => clientSecrets({})).toThrow(TypeError);
  });
});
