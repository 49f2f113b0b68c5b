// The exact forms a user sees in place of a secret or a CPF: what stands in its place matters as much
// as what is gone (a masked CPF keeps its last two digits, so a support person can tell two apart).
import { describe, expect, it } from 'vitest';
import { maskDigits, redactJson, redactText, redactUrl, truncate } from '../../src/redact.js';

describe('maskDigits', () => {
  it.each([
    ['', ''],
    ['1', '*'],
    ['12', '**'],
    ['123', '*23'],
    ['52998224725', '*********25'],
  ])('%j → %j', (value, masked) => {
    expect(maskDigits(value)).toBe(masked);
  });
});

describe('redactText: CPF numbers', () => {
  it('masks a bare CPF to its last two digits, in place', () => {
    expect(redactText('customer 52998224725 not found')).toBe('customer *********25 not found');
  });

  it('masks a formatted CPF keeping its shape', () => {
    expect(redactText('CPF 529.982.247-25.')).toBe('CPF ***.***.***-25.');
  });

  it('masks every CPF in the text, and one glued to letters', () => {
    expect(redactText('52998224725,11144477735 x11144477735y')).toBe('*********25,*********35 x*********35y');
  });

  it('leaves longer and shorter digit runs alone (a 12-digit account is not a CPF)', () => {
    expect(redactText('529982247251 5299822472 1234')).toBe('529982247251 5299822472 1234');
  });
});

describe('redactText: the usual spellings of a CPF', () => {
  it.each([
    ['529982247-25', '*********-25'],
    ['529 982 247 25', '*** *** *** 25'],
    ['529.982.247.25', '***.***.***.25'],
    ['529-982-247-25', '***-***-***-25'],
    ['529.982.247 25', '***.***.*** 25'],
  ])('masks %j as %j', (spelling, masked) => {
    expect(redactText(`cpf ${spelling}: not found`)).toBe(`cpf ${masked}: not found`);
  });

  it('leaves runs in which no whole groups hold 11 digits: a CNPJ, a decimal fraction, a date', () => {
    for (const text of ['lat -23.5505200000', '12.345.678/0001-95', '12.ABC.345/01DE-35', '2026-12-01 20:11:08'])
      expect(redactText(text)).toBe(text);
  });

  it('masks any 11 digits joined by what is neither letter nor number, whatever the groups (issue 34)', () => {
    // The rule has no list of spellings: a phone number of 11 digits is masked like a CPF.
    expect(redactText('+12025550123')).toBe('+*********23');
    expect(redactText('529982.24725 and 5299.822.472-5')).toBe('******.***25 and ****.***.**2-5');
  });

  it('masks 11 digits standing apart as whole groups inside a longer run: a number beside a CPF hides none', () => {
    expect(redactText('line 2: 52998224725')).toBe('line 2: *********25');
    expect(redactText('HTTP 422: 529.982.247-25')).toBe('HTTP 422: ***.***.***-25');
    expect(redactText('52998224725,11144477735')).toBe('*********25,*********35');
  });
});

describe('redactText: the numbers a call carried', () => {
  const carried = ['52998224725'];

  it.each([
    '529_982_247_25',
    '529/982/247/25',
    '5 2 9 9 8 2 2 4 7 2 5',
    '529.982.247-25',
    'x52998224725y',
    '0529982247251',
  ])('masks %j in any spelling', (spelling) => {
    const shown = redactText(`echo ${spelling} end`, carried);
    // Only the check digits (and a digit glued on either side) remain.
    expect(shown.replace(/[^0-9]/g, '')).toMatch(/^0?25(1)?$/);
  });

  it('masks a carried number given formatted, the same as bare', () => {
    expect(redactText('x 529/982/247/25', ['529.982.247-25'])).toBe('x ***/***/***/25');
  });

  it('leaves other numbers alone', () => {
    expect(redactText('account 5299822', carried)).toBe('account 5299822');
  });

  it('masks every occurrence, not only the first', () => {
    expect(redactText('529/982/247/25 and 529_982_247_25', carried)).toBe('***/***/***/25 and ***_***_***_25');
  });

  it('takes a secret for a number only when it is 11 digits once formatted: longer ones are masked by value', () => {
    expect(redactText('id 529982247251 and 1529982247251', ['529982247251'])).toBe('id [REDACTED] and 1[REDACTED]');
    expect(redactText('id ab52998224725', ['ab52998224725'])).toBe('id [REDACTED]');
  });
});

describe('redactText: secrets and credentials', () => {
  it('masks every occurrence of a known secret of 6 characters or more', () => {
    expect(redactText('abc123 then abc123', ['abc123'])).toBe('[REDACTED] then [REDACTED]');
  });

  it('leaves secrets shorter than 6 characters alone: they would mask innocent text', () => {
    expect(redactText('the cat sat', ['cat', 'the c'])).toBe('the cat sat');
  });

  it('masks the value of an Authorization header or field, whatever its scheme', () => {
    expect(redactText('Authorization: Bearer x')).toBe('Authorization: [REDACTED]');
    expect(redactText('authorization=Basic dXNlcjpwYXNz')).toBe('authorization=[REDACTED]');
    expect(redactText('{"Authorization":"token abc"}')).toBe('{"Authorization":"[REDACTED]"}');
    expect(redactText('AUTHORIZATION: opaque-value;next')).toBe('AUTHORIZATION: [REDACTED];next');
    expect(redactText('Authorization : Bearer abc')).toBe('Authorization : [REDACTED]');
    expect(redactText('Authorization: Bearer  abc')).toBe('Authorization: [REDACTED]');
  });

  it('masks a token-shaped credential after Bearer, with its padding', () => {
    expect(redactText('sent Bearer abcdefg1 twice')).toBe('sent Bearer [REDACTED] twice');
    expect(redactText('bearer a-b_c~d+e/f==')).toBe('bearer [REDACTED]');
    expect(redactText(`Bearer ${'a'.repeat(24)}`)).toBe('Bearer [REDACTED]');
  });

  it('masks a token after Bearer and any run of white space', () => {
    expect(redactText('Bearer  abcdefg1')).toBe('Bearer  [REDACTED]');
    expect(redactText('Bearer\tabcdefg1')).toBe('Bearer\t[REDACTED]');
  });

  it('leaves words after "bearer" alone: prose is not a credential', () => {
    expect(redactText('A valid bearer token is required.')).toBe('A valid bearer token is required.');
    expect(redactText('Bearer abcdefgh')).toBe('Bearer abcdefgh');
    expect(redactText(`Bearer ${'a'.repeat(23)}`)).toBe(`Bearer ${'a'.repeat(23)}`);
    expect(redactText('Bearer a1')).toBe('Bearer a1');
  });
});

describe('redactUrl', () => {
  it('masks DocumentNumber whatever its case, and drops user info', () => {
    expect(redactUrl('https://user:pw@api.example/v2?Account=123456&DocumentNumber=52998224725')).toBe(
      'https://api.example/v2?Account=123456&DocumentNumber=*********25',
    );
    expect(redactUrl('https://api.example/v2?documentnumber=1234')).toBe('https://api.example/v2?documentnumber=**34');
  });

  it('masks known secrets and CPFs elsewhere in the URL', () => {
    expect(redactUrl('https://api.example/t/secret-token-1/x?cpf=52998224725', ['secret-token-1'])).toBe(
      'https://api.example/t/[REDACTED]/x?cpf=*********25',
    );
  });

  it('redacts a string that is not a URL as text', () => {
    expect(redactUrl('not a url 52998224725', [])).toBe('not a url *********25');
  });
});

describe('redactJson', () => {
  it('redacts every string, deep, and keeps keys, numbers, booleans and null', () => {
    const input = {
      detail: 'cpf 52998224725',
      nested: [{ token: 'secret-token-1' }, 7, true, null],
      count: 11144477735,
    };
    expect(redactJson(input, ['secret-token-1'])).toEqual({
      detail: 'cpf *********25',
      nested: [{ token: '[REDACTED]' }, 7, true, null],
      count: 11144477735,
    });
    expect(input.detail).toBe('cpf 52998224725');
  });

  it('needs no secrets to mask CPFs', () => {
    expect(redactJson({ detail: 'cpf 52998224725' })).toEqual({ detail: 'cpf *********25' });
  });

  it('redacts member names at any depth (a provider may key an object by a CPF or a token)', () => {
    const input = {
      errors: { '52998224725': 'CPF not found', nested: [{ 'Bearer sbx_abcdef123456': 1, 'secret-token-1': 2 }] },
    };
    expect(JSON.stringify(redactJson(input, ['secret-token-1']))).toBe(
      '{"errors":{"*********25":"CPF not found","nested":[{"Bearer [REDACTED]":1,"[REDACTED]":2}]}}',
    );
  });

  it('tells apart two names that redact alike, and keeps a member named __proto__ a member', () => {
    const out = redactJson(
      JSON.parse('{"secret-token-1":1,"secret-token-2":2,"__proto__":{"polluted":true}}') as object,
      ['secret-token-1', 'secret-token-2'],
    );
    expect(Object.keys(out)).toEqual(['[REDACTED]', '[REDACTED] (2)', '__proto__']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect((out as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('numbers a third and later name that redact alike in order', () => {
    const secrets = ['secret-token-1', 'secret-token-2', 'secret-token-3'];
    expect(Object.keys(redactJson({ 'secret-token-1': 1, 'secret-token-2': 2, 'secret-token-3': 3 }, secrets))).toEqual(
      ['[REDACTED]', '[REDACTED] (2)', '[REDACTED] (3)'],
    );
  });

  it('gives back a plain object whose members can be changed and deleted, without undefined members', () => {
    const out = redactJson({ a: 1, b: undefined, c: 'x' }) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['a', 'c']);
    out.a = 2;
    delete out.c;
    expect(out).toEqual({ a: 2 });
  });

  it('drops objects nested deeper than 64 levels too', () => {
    let deep: unknown = { cpf: '52998224725' };
    for (let i = 0; i < 10_000; i += 1) deep = { inner: deep };
    const shown = JSON.stringify(redactJson(deep));
    expect(shown).toContain('"[too deep]"');
    expect(shown.split('inner').length - 1).toBe(64);
  });

  it('drops what is nested deeper than 64 levels instead of walking it', () => {
    let deep: unknown = '52998224725';
    for (let i = 0; i < 10_000; i += 1) deep = [deep];
    const shown = JSON.stringify(redactJson(deep));
    expect(shown).toContain('"[too deep]"');
    expect(shown).not.toContain('52998224725');
    // 64 arrays kept (the opening brackets but the one of "[too deep]").
    expect(shown.split('[').length - 2).toBe(64);
  });
});

describe('no secrets given: only CPFs and credentials are masked', () => {
  // Any other text comes back as it was: there is no built-in list of secrets. The last sample is the
  // text StrykerJS puts in a list it mutates, so a default list that is not empty would show there.
  const untouched = ['Customer not found', 'Account 123456 is blocked', 'Stryker was here'];

  it.each(untouched)('redactText(%j) and redactUrl of the same text (not a URL) leave it as it is', (text) => {
    expect(redactText(text)).toBe(text);
    expect(redactUrl(text)).toBe(text);
  });

  it('redactJson leaves every such string as it is', () => {
    expect(redactJson({ detail: untouched })).toEqual({ detail: untouched });
  });
});

describe('truncate', () => {
  it('keeps text up to the limit and says how much it cut', () => {
    expect(truncate('abcde', 5)).toBe('abcde');
    expect(truncate('abcdef', 5)).toBe('abcde… (1 more characters)');
    expect(truncate('x'.repeat(501))).toBe(`${'x'.repeat(500)}… (1 more characters)`);
  });
});
