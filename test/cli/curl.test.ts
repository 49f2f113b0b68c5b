// The curl lines the mock and the sandbox print: each is a request of the one request builder, written
// as words a real shell reads back as they were (the words are checked through /bin/sh, not a copy of its
// quoting rules).
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlCommand, shellWord, tryCurl } from '../../src/cli/curl.js';
import { operations } from '../../src/generated/operations.js';
import { Secrets } from '../../src/redact.js';
import { buildRequest } from '../../src/validation/request.js';

/** The words `/bin/sh` makes of `line` after its first word, each ended by a NUL in printf's output. */
const wordsOf = (line: string): string[] =>
  execFileSync('/bin/sh', ['-c', `set -- ${line}; shift; printf '%s\\0' "$@"`], { encoding: 'utf8' })
    .split('\0')
    .slice(0, -1);

describe('the curl lines of the command line', () => {
  it("list keys at the operation's path, with the headers the contract requires, as the builder builds it", () => {
    const line = tryCurl('listPixKeys', 'http://127.0.0.1:4020/gateway/', 'sbx_token', { limit: 2 });
    const built = buildRequest('listPixKeys', {
      baseUrl: 'http://127.0.0.1:4020/gateway/',
      query: { limit: 2 },
      headers: { Authorization: 'Bearer sbx_token', 'User-Agent': 'demo/1' },
      secrets: Secrets.none,
    });
    expect(built.url).toBe(`http://127.0.0.1:4020/gateway${operations.listPixKeys.path}?limit=2`);
    expect(wordsOf(line)).toEqual(['-H', 'Authorization: Bearer sbx_token', '-H', 'User-Agent: demo/1', built.url]);
    // What the banners print: a URL without a character the shell reads stays plain.
    expect(tryCurl('listPixKeys', 'http://127.0.0.1:4010', 'test')).toBe(
      `curl -H 'Authorization: Bearer test' -H 'User-Agent: demo/1' http://127.0.0.1:4010${operations.listPixKeys.path}`,
    );
  });

  it('write another method, a body and its media type, each word read back by the shell as it was', () => {
    const body = { email: "o'brien@example.com", note: 'a $HOME `x` "y" \\ z' };
    const built = buildRequest('updateNaturalPerson', {
      baseUrl: 'https://api.example',
      query: { Account: '300541976902', DocumentNumber: '52998224725' },
      body,
      secrets: Secrets.none,
    });
    expect(wordsOf(curlCommand(built))).toEqual([
      '-X',
      'PUT',
      '-H',
      `Content-Type: ${operations.updateNaturalPerson.body}`,
      '--data',
      JSON.stringify(body),
      built.url,
    ]);
  });

  it('quote exactly the words a shell would change', () => {
    for (const word of ['plain', 'a b', "it's", '$HOME', 'a*b', '~', 'x;y', '', 'tab\there', 'new\nline'])
      expect(wordsOf(`curl ${shellWord(word)}`), JSON.stringify(word)).toEqual([word]);
    expect(shellWord('http://127.0.0.1:4010/v2/x')).toBe('http://127.0.0.1:4010/v2/x');
    expect(shellWord('a?b')).toBe("'a?b'");
  });
});
