// Where a masked stretch starts and ends, and how it is written back: each example pins one behaviour
// of src/redact.ts that a mutation run found no test for (TESTING.md, "Surviving mutants"). Every
// expected text is the rule applied by hand, so each test fails when the stretch found, the merge of
// two stretches or the re-encoding of what was found changes.
import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  escapeControls,
  hideQueryValues,
  percentDecode,
  redactBounded,
  redactJson,
  redactPath,
  redactText,
  redactUrl,
} from '../../src/redact.js';

describe('the stretch a reading finds is masked where it stood in the text as written', () => {
  it('a CPF whose last digit stands just before a percent run ends at that digit', () => {
    // Found only once `%34` is read as 4; the `%20` after it is not part of the CPF.
    expect(redactText('5299822%34725%20')).toBe('*********25%20');
  });

  it('a carried number inside a longer run of digits is masked from its first digit to its last', () => {
    expect(redactText('1152998224725', ['52998224725'])).toBe('11*********25');
  });

  it('a carried number never seen before is found spelled with separators inside a longer run', () => {
    // A number no other test names: its matcher is built here, not taken from the module's cache.
    const number = String(randomInt(10_000_000_000, 100_000_000_000));
    const spelled = `${number.slice(0, 3)}.${number.slice(3, 6)}.${number.slice(6, 9)}-${number.slice(9)}`;
    expect(redactText(`1${spelled}`, [number])).toBe(`1***.***.***-${number.slice(9)}`);
  });

  it('a carried number given with its separators is still found in any spelling inside a longer run', () => {
    expect(redactText('1152998224725', ['529.982.247-25'])).toBe('11*********25');
  });

  it('a secret followed at once by a CPF: two places, each masked by its own rule', () => {
    expect(redactText('abcdefgh52998224725', ['abcdefgh'])).toBe('[REDACTED]*********25');
  });
});

describe('a CPF inside a CNPJ is the CNPJ, one outside it is a CPF', () => {
  it('the 11 digits that open a CNPJ are not masked (11.222.333/0001-81 grouped 11 + 3)', () => {
    expect(redactText('11222333000.181')).toBe('11222333000.181');
  });

  it('a CPF written before a CNPJ in the same text is masked, the CNPJ kept', () => {
    expect(redactText('52998224725 x 11222333000181')).toBe('*********25 x 11222333000181');
  });
});

describe('an encoded CPF is shown as it was read, masked and encoded again', () => {
  it("a JSON pointer's escapes stay pointer escapes: ~0 for ~, ~1 for /", () => {
    expect(redactText('529~0982~1247-25')).toBe('***~0***~1***-25');
  });

  it('a `+` written between the digits of a percent-encoded CPF stays a `+` (no form encoding here)', () => {
    expect(redactText('529+982+247%2D25')).toBe('***+***+***-25');
  });

  it('a lone `%` between the digits of a pointer-escaped CPF leaves it pointer-escaped', () => {
    expect(redactText('529~1982~24%7-25')).toBe('***~1***~0**%*-25');
  });

  it('a control character between the digits is encoded again with two hex digits (%09, U+0080 as %C2%80)', () => {
    expect(redactText('529%09982%09247%0925')).toBe('***%09***%09***%0925');
    expect(redactText('529%C2%80982%C2%80247%C2%8025')).toBe('***%C2%80***%C2%80***%C2%8025');
  });

  it('a `+` that percent-decoding yields stays a `+`', () => {
    expect(redactText('529%2B982%2B247-25')).toBe('***+***+***-25');
  });
});

describe('redactPath reads a path through at most four rounds of decoding', () => {
  it('a sequence that never decodes (%80) ends the rounds: its digits count, and it stays as written', () => {
    expect(redactPath('/5299822%8025')).toBe('/*******%****');
  });

  it('what a fifth round would decode stays encoded', () => {
    // %2525252531 is %31 after four rounds: shown so, its digits masked with the run's.
    expect(redactPath('/529982247%252525253125')).toBe('/*********%****');
  });
});

describe('percent-decoding stops after four rounds (a bound against a hostile text)', () => {
  it('a five-fold encoding is read four times', () => {
    expect(percentDecode('%2525252541')).toBe('%41');
  });

  it('a secret encoded five times over is not read as the secret', () => {
    expect(redactText('%2525252541bcdefg', ['Abcdefg'])).toBe('%2525252541bcdefg');
    expect(redactText('%25252541bcdefg', ['Abcdefg'])).toBe('[REDACTED]');
  });
});

describe('redactPath shows a plain run as written, an encoded one decoded and encoded again', () => {
  it('a raw space between the digits stays a space', () => {
    expect(redactPath('/529 982 247 25')).toBe('/*** *** *** **');
  });
});

describe('redactUrl reads each part as its own text and rewrites only what it masked', () => {
  it('a path segment holding a CPF is masked, though the next segment makes the whole a CNPJ', () => {
    expect(redactUrl('https://h.example/customers/11222333000/181')).toBe(
      'https://h.example/customers/*********00/181',
    );
  });

  it('a path segment and a query value with nothing to mask keep their encoding', () => {
    expect(redactUrl('https://h.example/a%41b?q=%41')).toBe('https://h.example/a%41b?q=%41');
  });

  it('a query name holding a CPF is masked, though the value before it makes the whole a CNPJ', () => {
    expect(redactUrl('https://h.example/p?x=112&22333000181=y')).toBe('https://h.example/p?x=112&*********81=y');
  });

  it('a fragment holding a CPF is masked, though the path before it makes the whole a CNPJ', () => {
    expect(redactUrl('https://h.example/x/112#22333000181')).toBe('https://h.example/x/112#*********81');
  });

  it('an empty fragment keeps its #', () => {
    expect(redactUrl('https://h.example/x#')).toBe('https://h.example/x#');
  });

  it('a DocumentNumber of any length is masked but its last two digits', () => {
    expect(redactUrl('https://h.example/x?DocumentNumber=12345')).toBe('https://h.example/x?DocumentNumber=***45');
  });
});

describe('the bounds of what is shown', () => {
  it('text cut before masking says how much more there was, however short the masked cut', () => {
    const secret = 's'.repeat(80);
    expect(redactBounded(`${secret}x`, [secret], 10)).toBe('[REDACTED]… (71 more characters)');
  });

  it('a format character past U+00FF is escaped with four hex digits', () => {
    expect(escapeControls('a\u061cb')).toBe('a\\u061cb');
  });

  it('hideQueryValues of a URL given as text keeps each query name', () => {
    expect(hideQueryValues('https://h.example/a?x=1&y=2#f')).toBe('https://h.example/a?x=REDACTED&y=REDACTED');
  });
});

describe('redactJson', () => {
  it("gives the root value the key '' (a text rule keyed by member name sees none)", () => {
    expect(redactJson('x', [], { text: (text, key) => `${JSON.stringify(key)}:${text}` })).toBe('"":x');
  });
});
