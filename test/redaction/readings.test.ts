// The readings of src/redact.ts at their edges: UTF-8 sequences of every length in a percent-encoding,
// a secret found only once a text is decoded, the order in which secrets are tried, the numbers a call
// carries inside a longer run, and the helpers that shape a message, a cause and a span's URL.
import { describe, expect, it } from 'vitest';
import {
  escapeControls,
  hideQueryValues,
  hideQueryValuesIn,
  MASK,
  percentDecode,
  redactedCause,
  redactBounded,
  redactMessage,
  redactPath,
  redactText,
  redactUrl,
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
    delete error.stack;
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

describe('bounds, URLs, paths and escapes as shown', () => {
  it('a text past eight times the bound is cut before it is masked; the count is of the text as given', () => {
    const long = 'tok-secret-1 '.repeat(700);
    expect(redactBounded(long, ['tok-secret-1'], 1000).endsWith(`${MASK}… (8100 more characters)`)).toBe(true);
    expect(redactBounded('z'.repeat(8000)).endsWith('z… (7000 more characters)')).toBe(true);
    expect(redactBounded('y'.repeat(300))).toBe('y'.repeat(300));
  });

  it('redactUrl masks a fragment, a query name and a path segment, and leaves a URL with nothing to mask as it was', () => {
    expect(redactUrl('https://a.test/p?x=1#frag-52998224725')).toBe('https://a.test/p?x=1#frag-*********25');
    expect(redactUrl('https://a.test/p#section')).toBe('https://a.test/p#section');
    expect(redactUrl('https://a.test/p/seg?limit=5&x=a%20b')).toBe('https://a.test/p/seg?limit=5&x=a%20b');
    expect(redactUrl('https://a.test/p?52998224725=1&ok=2')).toBe('https://a.test/p?*********25=1&ok=2');
    expect(redactUrl('https://a.test/p/a%2Ftok-secret-1/x', ['a/tok-secret-1'])).toBe('https://a.test/p/[REDACTED]/x');
  });

  it('redactPath: every digit of a run of 11 or more, written or encoded, and a bearer credential; no query', () => {
    expect(redactPath('/v2/52998224725/x?DocumentNumber=1')).toBe('/v*/***********/x');
    expect(redactPath('/v2/5299822472')).toBe('/v*/**********');
    expect(redactPath('/keys/5299822472')).toBe('/keys/5299822472');
    expect(redactPath('/v2/529%2E982%2E247%2D25')).toBe('/v*/***.***.***-**');
    expect(redactPath('/v2/529+982+247+25')).toBe('/v*/***%20***%20***%20**');
    expect(redactPath('/v2/Bearer%20abc/x')).toBe('/v2/Bearer%20***/x');
    expect(redactPath(undefined)).toBe('/');
  });

  it('an encoded gap is encoded again in upper-case hex, a quote included', () => {
    expect(redactText('529\\u001b982.247-25')).toBe('***%1B***.***-25');
    expect(redactText('529\\u0027982.247-25')).toBe('***%27***.***-25');
  });

  it('escapeControls writes a control or format character below U+0100 as \\x, above as \\u', () => {
    expect(escapeControls('\u0007\u00ad\u202e\u2028x')).toBe('\\x07\\xad\\u202e\\u2028x');
    expect(escapeControls('\u0100\u200b')).toBe('\u0100\\u200b');
  });
});
