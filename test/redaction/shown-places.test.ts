// Where a masked stretch starts and ends, and how it is written back: each example pins one behaviour
// of src/redact.ts that a mutation run found no test for (TESTING.md, "Surviving mutants"). Every
// expected text is the rule applied by hand, so each test fails when the stretch found, the merge of
// two stretches or the re-encoding of what was found changes.
import { describe, expect, it } from 'vitest';
import { redactJson, redactPath, redactText, redactUrl } from '../../src/redact.js';

describe('the stretch a reading finds is masked where it stood in the text as written', () => {
  it('a CPF whose last digit stands just before a percent run ends at that digit', () => {
    // Found only once `%34` is read as 4; the `%20` after it is not part of the CPF.
    expect(redactText('5299822%34725%20')).toBe('*********25%20');
  });

  it('a carried number inside a longer run of digits is masked from its first digit to its last', () => {
    expect(redactText('1152998224725', ['52998224725'])).toBe('11*********25');
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

describe('redactUrl reads each part as its own text and rewrites only what it masked', () => {
  it('a path segment holding a CPF is masked, though the next segment makes the whole a CNPJ', () => {
    expect(redactUrl('https://h.example/customers/11222333000/181')).toBe(
      'https://h.example/customers/*********00/181',
    );
  });

  it('a path segment and a query value with nothing to mask keep their encoding', () => {
    expect(redactUrl('https://h.example/a%41b?q=%41')).toBe('https://h.example/a%41b?q=%41');
  });

  it('a DocumentNumber of any length is masked but its last two digits', () => {
    expect(redactUrl('https://h.example/x?DocumentNumber=12345')).toBe('https://h.example/x?DocumentNumber=***45');
  });
});

describe('redactJson', () => {
  it("gives the root value the key '' (a text rule keyed by member name sees none)", () => {
    expect(redactJson('x', [], { text: (text, key) => `${JSON.stringify(key)}:${text}` })).toBe('"":x');
  });
});
