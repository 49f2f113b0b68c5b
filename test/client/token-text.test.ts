// The one rule for the text of a token (src/token-text.ts: tokenTextProblem), shared by
// createBaasClient and --token/BAAS_TOKEN: "Bearer " at the start, however it is spelt and spaced, with
// or without the header's name; a line break at the end or a control character anywhere; nothing else. The message's words are pinned in
// test/client/option-checks.test.ts.
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

  it.each([
    'sbx_abc123',
    'Bearersbx_abc123',
    'bearer',
    // A token that has the word inside it, not at its start.
    'sbx_Bearer abc',
    'x Bearer abc',
    'sbx_authorization: Bearer abc',
    'Authorization-Bearer abc',
  ])('%j is not: no problem', (token) => {
    expect(tokenTextProblem(token)).toBeUndefined();
  });

  it.each(['sbx_abc123\n', 'sbx_abc123\r', 'sbx_abc123\r\n', 'sbx_abc123\n\n'])(
    '%j ends with a line break: refused',
    (token) => {
      expect(tokenTextProblem(token)).toMatch(/^ends with a line break/);
    },
  );

  it.each(['sbx_\tabc', 'sbx_abc\r\nX-Evil: 1', '\u0000sbx', 'sbx\u007f', '\u001b[31msbx'])(
    '%j holds a control character: refused',
    (token) => {
      expect(tokenTextProblem(token)).toMatch(/^holds a control character/);
    },
  );
});
