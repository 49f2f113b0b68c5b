// The names of verify's checks, as the report and the table show them: like field names, a row is
// found by them, so they are written once here rather than in each test.
export const CHECK = {
  page1: 'list-keys page 1',
  page2: 'list-keys page 2',
  lastPage: 'cursor.next null on the last page',
  noToken: 'list-keys without a token',
  badLimit: 'list-keys with limit=201',
  write: 'update natural person (write)',
  requestId: 'X-Request-Id on responses',
  rateLimit: 'rate-limit headers',
} as const;

/** The counts of a summary line such as `DRIFT: 3 ok, 1 drift, 2 not-seen`, and what comes before them. */
export function summaryOf(text: string): { outcome: string; counts: Record<string, number> } {
  const line = text.split('\n').at(-1) ?? '';
  const at = line.lastIndexOf(': ');
  const counts: Record<string, number> = {};
  for (const part of line.slice(at + 2).split(', ')) {
    const [count, verdict] = part.split(' ');
    counts[verdict!] = Number(count);
  }
  return { outcome: line.slice(0, at), counts };
}
