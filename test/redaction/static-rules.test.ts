// The rules src/redact.ts builds when it loads (its regular expressions and tables), each pinned by a
// case the mutation run of those constants found no test for: the JSON escapes read back (every one
// JSON.stringify writes), a JSON escape and a pointer's `~1`/`~0` inside percent-encoding, the digits
// of an escape as written never joined to a run, the host of a URL on an IPv4 address (every one in a
// text) kept as an address, and a bearer credential in a path after more than one separator.
import { describe, expect, it } from 'vitest';
import { redactPath, redactText } from '../../src/redact.js';

describe('the rules built at load', () => {
  it('reads back every escape JSON.stringify writes: a secret holding " \\ and control characters is masked', () => {
    const secret = 'ab"cd\\ef\bgh\fij\nkl\rmn\top';
    expect(redactText(`said ${JSON.stringify(secret)}`, [secret])).toBe('said "[REDACTED]"');
  });

  it("a JSON escape and a pointer's ~1 and ~0 inside percent-encoding are read back", () => {
    const secrets = ['abc/defghij', 'abc~defghij'];
    for (const written of ['abc%5C%2Fdefghij', 'abc%7E1defghij', 'abc%7E0defghij'])
      expect(redactText(`said ${written} here`, secrets), written).toBe('said [REDACTED] here');
  });

  it('the digits of a \\uXXXX escape as written are no digits of a run (its reading sees the letter)', () => {
    // As written, a run would be 00412345678 or 04123456789 (11 digits) if the escape were not blanked whole.
    for (const text of ['ref \\u00412345678', 'ref \\u004123456789']) expect(redactText(text)).toBe(text);
  });

  it('the host of a URL on an IPv4 address is an address, in every URL of a text', () => {
    const text = 'see http://100.200.100.20/x and http://100.200.100.21/y';
    expect(redactText(text)).toBe(text);
  });

  it('a bearer credential in a path after two separators: both kept, the credential masked', () => {
    expect(redactPath('/x/Bearer%20%20abcdefgh/y')).toBe('/x/Bearer%20%20***/y');
    expect(redactPath('/x/Bearer  abcdefgh/y')).toBe('/x/Bearer  ***/y');
  });

  it('a \\uXXXX escape inside percent-encoding is read back; a CPF written in \\u escapes alone is found', () => {
    expect(redactText('said abc%5Cu002edefghij here', ['abc.defghij'])).toBe('said [REDACTED] here');
    expect(redactText('cpf 529\\u0039822472\\u0035')).toBe('cpf *********25');
    expect(redactText('said abc~1defghij', ['abc/defghij'])).toBe('said [REDACTED]');
  });

  it('only a whole escape (%XX, ~0, ~1) is blanked as written: a lone % or ~ between digits is a separator', () => {
    expect(redactText('id 52998224%7-25')).toBe('id ********%*-25');
    expect(redactText('id 52998224~725')).toBe('id ********~*25');
    // A whole escape is no separator: these runs are not 11 digits joined.
    for (const text of ['ref 1234567%2012 x', 'ref 1234~1567890']) expect(redactText(text)).toBe(text);
  });
});
