// The readings of src/redact.ts at their edges: UTF-8 sequences of every length in a percent-encoding,
// a secret found only once a text is decoded, the order in which secrets are tried, the numbers a call
// carries inside a longer run, and the helpers that shape a message, a cause and a span's URL.
import { describe, expect, it } from 'vitest';
import {
  hideQueryValues,
  hideQueryValuesIn,
  MASK,
  percentDecode,
  redactedCause,
  redactMessage,
  redactText,
} from '../../src/redact.js';

describe('percent-decoding: a UTF-8 sequence by the length its first byte says', () => {
  it.each([
    ['two bytes (é)', '%C3%A9', 'é'],
    ['three bytes from E0 (क)', '%E0%A4%95', 'क'],
    ['three bytes from EF (full-width ５)', '%EF%BC%95', '５'],
    ['four bytes from F0 (😀)', '%F0%9F%98%80', '😀'],
    ['a sequence cut short stays as written', '%E0%A4', '%E0%A4'],
    ['a byte that starts none stays, what follows is read', '%FF%41', '%FFA'],
  ])('%s', (_what, written, read) => {
    expect(percentDecode(written)).toBe(read);
  });

  it('a CPF whose digits are written as four-byte mathematical digits, percent-encoded, is masked', () => {
    // 𝟓 is U+1D7D3: F0 9D 9F 93.
    const five = encodeURIComponent('𝟓');
    const text = `doc ${five}29982247-25`;
    expect(redactText(text)).not.toMatch(/29982247-25/);
  });
});

describe('a secret found only in a decoded reading is masked where it stood', () => {
  it('one that ends inside a sequence that does not decode', () => {
    expect(redactText('x abc%64ef%C0 y', ['abcdef%C0'])).toBe(`x ${MASK} y`);
  });

  it('form-encoded (+ as a space) with a JSON escape in it', () => {
    expect(redactText('s=my+secret+val\\u0065', ['my secret vale'])).toBe(`s=${MASK}`);
  });

  it('a JSON escape inside a percent-encoding', () => {
    expect(redactText('%5Cu0074ok-secret-1', ['tok-secret-1'])).toBe(MASK);
  });

  it('a + read as a space only where that makes the secret', () => {
    expect(redactText('a+b+tok+secret', ['tok secret'])).toBe(`a+b+${MASK}`);
  });
});

describe('the secrets of one list', () => {
  it('the longest first: a secret holding another is masked whole', () => {
    expect(redactText('abcdefghij', ['abcdef', 'abcdefghij'])).toBe(MASK);
    expect(redactText('abcdefghij', ['abcdefghij', 'abcdef'])).toBe(MASK);
  });

  it('a CPF-like secret (the number a call carries) is masked in any spelling, inside a longer run too', () => {
    expect(redactText('doc 5.2.9.9.8.2.2.4.7.2.5', ['529.982.247-25'])).toBe('doc *.*.*.*.*.*.*.*.*.2.5');
    expect(redactText('12529982247251', ['52998224725'])).toBe('12*********251');
    expect(redactText('12529982247251')).toBe('12529982247251');
  });

  it('a list changed between two calls is read again', () => {
    expect(redactText('first-secret-1 second-secret-2', ['first-secret-1'])).toBe(`${MASK} second-secret-2`);
    expect(redactText('first-secret-1 second-secret-2', ['second-secret-2'])).toBe(`first-secret-1 ${MASK}`);
  });
});

describe('the shapes of a message, a cause and a span URL', () => {
  it('redactMessage masks, then escapes the controls; with no secrets given, the rules still apply', () => {
    expect(redactMessage('a\nb 52998224725')).toBe('a\\nb *********25');
    expect(redactMessage('tok-secret-1 x', ['tok-secret-1'])).toBe(`${MASK} x`);
  });

  it('redactedCause of an error without a stack: its message masked, an empty stack', () => {
    const error = new Error('boom tok-secret-1');
    error.stack = undefined;
    const copy = redactedCause(error, ['tok-secret-1']);
    expect([copy.message, copy.stack]).toEqual([`boom ${MASK}`, '']);
  });

  it('hideQueryValues: each value REDACTED, no fragment; a path that is no URL loses its query and fragment', () => {
    expect(hideQueryValues('https://a.test/k?limit=5&cursor=abc#x')).toBe(
      'https://a.test/k?limit=REDACTED&cursor=REDACTED',
    );
    expect(hideQueryValues('https://a.test/k#x')).toBe('https://a.test/k');
    expect(hideQueryValues('/v2/keys?cursor=abc#frag')).toBe('/v2/keys');
    expect(hideQueryValues('/v2/keys#frag?x')).toBe('/v2/keys');
  });

  it('hideQueryValuesIn: every URL of a message without its query values, the words kept', () => {
    expect(hideQueryValuesIn('failed (GET https://a.test/k?Account=123&cursor=zz) then')).toBe(
      'failed (GET https://a.test/k?Account=REDACTED&cursor=REDACTED) then',
    );
  });
});

describe('more edges of the readings', () => {
  it('a character past the last run of the digit table (🧿, U+1F9FF) is no digit, and breaks nothing', () => {
    expect(redactText('🧿 52998224725')).toBe('🧿 *********25');
  });

  it('%2B is a plus, never a space: only a + written as such is read as one', () => {
    expect(redactText('tok%2Bsecret1%5Cn', ['tok secret1'])).toBe('tok%2Bsecret1%5Cn');
    expect(redactText('tok+secret%41', ['tok+secretA'])).toBe(MASK);
  });

  it('two lists that join alike are two lists', () => {
    expect(redactText('abcdefg', ['abcdefg', 'hijklmn'])).toBe(MASK);
    expect(redactText('abcdef ghijklmn', ['abcdef', 'ghijklmn'])).toBe(`${MASK} ${MASK}`);
  });

  it('secrets given as any iterable', () => {
    expect(redactText('x tok-secret-9', new Set(['tok-secret-9']))).toBe(`x ${MASK}`);
  });

  it('a CPF written with JSON escapes in its gaps is shown masked and encoded again, a lone surrogate as U+FFFD', () => {
    expect(redactText('529\\u2010982.247-25')).toBe('***%E2%80%90***.***-25');
    expect(redactText('529\\ud800982.247-25')).toBe('***%EF%BF%BD***.***-25');
  });
});
