// The one rule for the text of a token (src/token-text.ts: tokenTextProblem), shared by
// createBaasClient and --token/BAAS_TOKEN: a token is RFC 6750's b64token, and the likeliest ways to
// break it have their own words, the most helpful first: "Bearer " at the start, however it is spelt
// and spaced, with or without the header's name; a line break at the end; a control character anywhere;
// then any other character, named by its code point, never the token.
import { describe, expect, it } from 'vitest';
import { tokenTextProblem } from '../../src/token-text.js';

describe('tokenTextProblem', () => {
  it.each([
    'Bearer sbx_abc123',
    'bearer sbx_abc123',
    'BEARER\tsbx_abc123',
    '  Bearer sbx_abc123',
    'Authorization: Bearer sbx_abc123',
    'authorization:Bearer sbx_abc123',
    'Authorization :  Bearer sbx_abc123',
    ' AUTHORIZATION:\tbearer sbx_abc123',
  ])('%j is the header value: refused', (token) => {
    expect(tokenTextProblem(token)).toMatch(/"Bearer "/);
  });

  it.each(['sbx_abc123', 'Bearersbx_abc123', 'bearer', 'abc-DEF.123_~+/', 'YWJj==', 'a', ''])(
    "%j is a b64token (or empty, the caller's to call missing): no problem",
    (token) => {
      expect(tokenTextProblem(token)).toBeUndefined();
    },
  );

  // A token that has the word inside it, not at its start: not the header value, but its space is no token's.
  it.each(['sbx_Bearer abc', 'x Bearer abc', 'sbx_authorization: Bearer abc', 'Authorization-Bearer abc'])(
    '%j holds a space or a colon, not "Bearer " at its start',
    (token) => {
      expect(tokenTextProblem(token)).toMatch(/^holds (a space \(U\+0020\)|':' \(U\+003A\)), which no token has/);
    },
  );

  // What a copy brings: the README's placeholder (sbx_… with U+2026), a quote, a space the page had.
  it.each([
    ['sbx_\u2026', "holds '\u2026' (U+2026, an ellipsis), which no token has: copy the whole token"],
    ['\u201csbx_abc\u201d', "holds '\u201c' (U+201C, a quotation mark)"],
    ['"sbx_abc"', `holds '"' (U+0022, a quotation mark)`],
    ['sbx_abc ', 'holds a space (U+0020)'],
    ['sbx_\u00a0abc', 'holds a space (U+00A0)'],
    ['\ufeffsbx_abc', 'holds an invisible character (U+FEFF)'],
    ['sbx_\u00e9', "holds '\u00e9' (U+00E9), which"],
    ['sbx_\u{1f511}', "holds '\u{1f511}' (U+1F511), which"],
    ['sbx\u0085', 'holds a control character (U+0085)'],
    // A character that neither shows nor has a word of its own (private use): named by its code point alone.
    ['sbx_\ue000', 'holds a character (U+E000), which'],
    ['abc=def', 'holds "=" before its end'],
    ['==', 'is only "="'],
  ])('%j holds a character no b64token has: refused, naming it by its code point', (token, words) => {
    const problem = tokenTextProblem(token);
    expect(problem).toContain(words);
    expect(problem).toMatch(/: (copy|give) the whole token/);
    // Never the token: only the one character.
    if (token.length > 3) expect(problem).not.toContain(token.replace(/[^A-Za-z0-9]/g, '').slice(0, 4));
  });

  it('says the most helpful thing first: "Bearer " before the space it has, a line break before the rest', () => {
    expect(tokenTextProblem('Bearer sbx_\u2026')).toMatch(/^starts with "Bearer "/);
    expect(tokenTextProblem('sbx_abc \n')).toMatch(/^ends with a line break/);
    expect(tokenTextProblem('sbx_\u2026\t')).toMatch(/^holds a control character \(a tab/);
  });

  it.each(['sbx_abc123\n', 'sbx_abc123\r', 'sbx_abc123\r\n', 'sbx_abc123\n\n'])(
    '%j ends with a line break: refused',
    (token) => {
      expect(tokenTextProblem(token)).toMatch(/^ends with a line break/);
    },
  );

  // A control character before a final line break is the control character's problem, not the line break's.
  it.each(['sbx_\tabc', 'sbx_abc\r\nX-Evil: 1', '\u0000sbx', 'sbx\u007f', '\u001b[31msbx', 'sbx\tabc\n'])(
    '%j holds a control character: refused',
    (token) => {
      expect(tokenTextProblem(token)).toMatch(/^holds a control character/);
    },
  );
});
