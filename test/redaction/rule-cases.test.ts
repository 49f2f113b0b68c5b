// Issue 34's rule, case by case where a property would not say which edge broke: the bound between
// two digits, runs longer than a CPF, each reading (percent, form, JSON escapes, pointers, rounds of
// decoding), what is shown for an encoded CPF, addresses of servers, the walk's bound, and query
// values in free text.
import { describe, expect, it } from 'vitest';
import {
  hideQueryValuesIn,
  MAX_GAP,
  MAX_JSON_NODES,
  normalizeDigits,
  percentDecode,
  redactCredentials,
  redactJson,
  redactPath,
  redactText,
  redactUrl,
} from '../../src/redact.js';

const CPF = '52998224725';
const spaced = (gap: string) => CPF.split('').join(gap);

describe('what may stand between two digits', () => {
  it(`up to ${MAX_GAP} characters that are neither letter nor number, and no more`, () => {
    expect(redactText(`a ${spaced('.'.repeat(MAX_GAP))} b`)).not.toMatch(/5.*2.*9.*9/);
    expect(redactText(`a ${spaced('.'.repeat(MAX_GAP + 1))} b`)).toBe(`a ${spaced('.'.repeat(MAX_GAP + 1))} b`);
  });

  it('a letter or another number (⑩, ½) ends a run', () => {
    expect(redactText('5299822x4725')).toBe('5299822x4725');
    expect(redactText('52998⑩224725')).toBe('52998⑩224725');
    expect(redactText('½52998224725')).toBe('½*********25');
  });

  it('reads every digit of any script as its ASCII digit, the table of other numbers included', () => {
    expect(normalizeDigits('①⑴⒈🄂❶➀➊⓵⓿⁰Ⅴ፩٣')).toBe('1111111100513');
    // A symbol whose NFKC form is a letter stays a symbol: it does not break a run.
    expect(normalizeDigits('Ⓚ ｓ ．')).toBe('Ⓚ s .');
    expect(redactText(`x ${spaced('Ⓚ')} y`)).toBe(`x ${'*Ⓚ'.repeat(9)}2Ⓚ5 y`);
  });
});

describe('runs longer than a CPF', () => {
  it('whole groups holding 11 digits are one; a run in which none do is no CPF', () => {
    expect(redactText('1 52998224725')).toBe('1 *********25');
    expect(redactText('52998224725 1')).toBe('*********25 1');
    expect(redactText('1234 5678 9012 3456')).toBe('1234 5678 9012 3456');
    expect(redactText('12.345.678/0001-95')).toBe('12.345.678/0001-95');
    expect(redactText('529.982.247-25 / 111.444.777-35')).toBe('***.***.***-** / ***.***.***-35');
  });

  it('the number a call carried is masked inside any run, in any spelling', () => {
    expect(redactText(`9${spaced('--')}9`, [CPF]).replace(/[^0-9]/g, '')).toBe('59');
  });
});

describe('readings', () => {
  it('percent-encoding, a double one, and a malformed one', () => {
    expect(redactText(`x ${encodeURIComponent(encodeURIComponent('529.982.247-25'))} y`)).toBe('x ***.***.***-25 y');
    expect(percentDecode('%E0%A4%A %41%zz')).toBe('%E0%A4%A A%zz');
    expect(percentDecode('%25%32%35')).toBe('%');
  });

  it('a CPF encoded is shown encoded again, masked; in a JSON pointer, with its escapes', () => {
    expect(redactText('at /x/529%20982%20247%2025/y')).toBe('at /x/***%20***%20***%2025/y');
    expect(redactText('at /errors/529~1982~1247~125')).toBe('at /errors/***~1***~1***~125');
    expect(redactText('at /e/a~0b~1529982247~125')).toBe('at /e/a~0b~1*********~125');
    expect(redactText('"\\u0035\\u0032\\u0039\\u0039\\u0038\\u0032\\u0032\\u0034\\u0037\\u0032\\u0035"')).toBe(
      '"*********25"',
    );
  });

  it('+ is a space in form encoding, and kept as written elsewhere', () => {
    expect(redactText('s=my+secret+value&x=1', ['my secret value'])).toBe('s=[REDACTED]&x=1');
    expect(redactText('t=ab+cd+efgh', ['ab+cd+efgh'])).toBe('t=[REDACTED]');
    expect(redactText('t=ab%2Bcd%2Befgh', ['ab+cd+efgh'])).toBe('t=[REDACTED]');
  });

  it('JSON string escapes: \\/ and \\uXXXX, and one inside a percent-encoding', () => {
    expect(redactText('{"t":"abc\\/def1234"}', ['abc/def1234'])).toBe('{"t":"[REDACTED]"}');
    expect(redactText('{"t":"\\u00e9t\\u00e9-secret"}', ['été-secret'])).toBe('{"t":"[REDACTED]"}');
    expect(redactText('h=%5Cu0061bc123456', ['abc123456'])).toBe('h=[REDACTED]');
    expect(redactText('esc \\n\\t\\"\\\\\\b\\f\\r ok')).toBe('esc \\n\\t\\"\\\\\\b\\f\\r ok');
  });

  it('a secret holding %00 is seen after one round of a double encoding', () => {
    expect(redactText('x k000%25009 y', ['k000%009'])).toBe('x [REDACTED] y');
    expect(redactText('x k000%009 y', ['k000%009'])).toBe('x [REDACTED] y');
  });

  it('secrets: the longest first, credentials from 4 characters, others from 6', () => {
    expect(redactText('abcdefgh', ['abcd', 'abcdefgh'])).toBe('[REDACTED]');
    expect(redactText('pass abcde', ['abcde'])).toBe('pass abcde');
    expect(redactCredentials('pass abcd', ['abcd'])).toBe('pass [REDACTED]');
    expect(redactCredentials('pass abc', ['abc'])).toBe('pass abc');
    expect(redactText('a.b*c(d)e', ['.b*c(d)'])).toBe('a[REDACTED]e');
  });

  it('places that overlap are masked as one, whole when a secret is among them', () => {
    expect(redactText('tok52998224725en', ['tok5299822'])).toBe('[REDACTED]en');
  });
});

describe('addresses of servers are not CPFs', () => {
  it('the host and port of a URL, and a socket address', () => {
    for (const text of [
      'GET http://127.0.0.1:39051/v2',
      'connect ECONNREFUSED 127.0.0.1:39051',
      'http://[::1]:39051/x',
      'https://api2.provider.test:44321?x',
    ])
      expect(redactText(text)).toBe(text);
  });

  it('user info, path and query are read as text, and a host of 11 digits that is no address is', () => {
    expect(redactText('http://u:52998224725@h.test:8080/52998224725')).toBe(
      'http://u:*********25@h.test:8080/*********25',
    );
    expect(redactText('http://529.982.247.25/x')).toBe('http://***.***.***.25/x');
    expect(redactText('at 192.168.100.20 now')).toBe('at ***.***.***.20 now');
  });
});

describe('paths of our servers', () => {
  it('masks every digit of a run of 11 or more, written, encoded or form-encoded', () => {
    expect(redactPath('/c/529.982.247-25/k?DocumentNumber=1')).toBe('/c/***.***.***-**/k');
    expect(redactPath('/c/1529982247250/k')).toBe('/c/*************/k');
    expect(redactPath('/c/529+982+247+25')).toBe('/c/***%20***%20***%20**');
    expect(redactPath('/c/5299822472/k')).toBe('/c/5299822472/k');
    expect(redactPath(undefined)).toBe('/');
  });
});

describe('the walk of a structure is bounded', () => {
  it(`walks at most ${MAX_JSON_NODES} values and says how many it left out`, () => {
    const many = Object.fromEntries(Array.from({ length: MAX_JSON_NODES + 5 }, (_, i) => [`m${i}`, i]));
    const out = redactJson(many) as Record<string, unknown>;
    expect(Object.keys(out)).toHaveLength(MAX_JSON_NODES);
    expect(out['…']).toBe('6 more members not shown');
    const list = redactJson(
      Array.from({ length: 12 }, () => 'x'),
      [],
      { maxNodes: 5 },
    ) as unknown[];
    expect(list).toEqual(['x', 'x', 'x', 'x', '… (8 more items not shown)']);
    expect(redactJson({ a: [1, 2], b: 3 }, [], { maxNodes: 5 })).toEqual({ a: [1, 2], b: 3 });
    expect(redactJson({ a: [1, 2], b: 3 }, [], { maxNodes: 4 })).toEqual({
      a: [1, '… (1 more items not shown)'],
      b: 3,
    });
  });
});

describe('query values in free text', () => {
  it('every URL in a message loses its query values and fragment', () => {
    expect(hideQueryValuesIn('x (GET https://p.test/v2/k?Account=1&cursor=abc#f) y')).toBe(
      'x (GET https://p.test/v2/k?Account=REDACTED&cursor=REDACTED) y',
    );
    expect(hideQueryValuesIn('no url here')).toBe('no url here');
  });

  it('redactUrl masks a known secret in a query value however it was encoded', () => {
    expect(redactUrl('https://idp.test/e?s=k000%25009', ['k000%009'])).not.toContain('k000');
  });
});
