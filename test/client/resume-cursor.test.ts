// The other side of the page walker's cursor rule (test/client/page-bounds.test.ts: a cursor the provider
// sends past the contract's bound, or outside its characters, is never followed nor yielded, so never
// journaled): a cursor an export resumes from (`after`, what a journal holds) is held to the same
// contract before it is sent. A journal written by hand, or by a version before the walker's check,
// with a cursor of 513 characters or a newline in it is refused with nothing sent, naming the rule.
import { describe, expect, it } from 'vitest';
import { exportKeyPages } from '../../src/batch/export-keys.js';
import { BaasValidationError, createBaasClient } from '../../src/index.js';
import { CURSOR_MAX_LENGTH, CURSOR_PATTERN } from '../../src/generated/bounds.js';

function provider() {
  const asked: (string | null)[] = [];
  const fetch = async (input: RequestInfo | URL): Promise<Response> => {
    asked.push(new URL(input instanceof Request ? input.url : String(input)).searchParams.get('cursor'));
    return new Response(JSON.stringify({ cursor: { next: null }, data: [] }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { client: createBaasClient({ baseUrl: 'https://provider.test', token: 'tok', fetch, retry: false }), asked };
}

async function resume(after: string): Promise<{ error: unknown; asked: (string | null)[] }> {
  const { client, asked } = provider();
  try {
    for await (const _page of exportKeyPages(client, { after })) {
      // Every page is read; none is expected.
    }
  } catch (error) {
    return { error, asked };
  }
  return { error: undefined, asked };
}

describe('a cursor an export resumes from', () => {
  it(`of at most ${CURSOR_MAX_LENGTH} characters of the contract's pattern is sent as it is`, async () => {
    const longest = `${'a'.repeat(CURSOR_MAX_LENGTH - 4)}._~=`;
    expect(await resume(longest)).toEqual({ error: undefined, asked: [longest] });
  });

  it.each([
    ['one character too long', 'a'.repeat(CURSOR_MAX_LENGTH + 1), `at most ${CURSOR_MAX_LENGTH} characters`],
    ['2 MB long', 'a'.repeat(2_000_000), `at most ${CURSOR_MAX_LENGTH} characters`],
    ['with a newline', 'ab\ncd', CURSOR_PATTERN],
    ['with a space', 'ab cd', CURSOR_PATTERN],
    ['with a slash', 'ab/cd', CURSOR_PATTERN],
  ])('%s is refused before anything is sent, naming the rule', async (_name, after, rule) => {
    const { error, asked } = await resume(after);
    expect(asked).toEqual([]);
    expect(error).toBeInstanceOf(BaasValidationError);
    expect((error as Error).message).toContain('nothing was sent');
    expect((error as Error).message).toContain(rule);
    // The cursor itself is not in the message.
    expect((error as Error).message).not.toContain('aaaaaaaa');
  });
});
