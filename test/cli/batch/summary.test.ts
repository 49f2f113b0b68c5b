// The summary update-many prints: every count written as the first line writes its own ("Done: 1,000
// lines"), so a run of a thousand lines does not say "sent 1000" under "1,000 lines".
import { describe, expect, it } from 'vitest';
import { summaryLines } from '../../../src/cli/batch/summary.js';

describe('the summary', () => {
  it('groups the digits of every count as the first line does', () => {
    const lines = summaryLines({
      lines: 12_345,
      sent: 11_000,
      ok: 10_000,
      failed: 1_000,
      failedBy: { '503': 1_000 },
      skipped: 1_200,
      invalid: 145,
      elapsedSeconds: 250.5,
      requests: 12_500,
      requestsPerSecond: 1_234.5,
      interrupted: false,
    });
    const text = lines.join('\n');
    expect(lines[0]).toContain('12,345 lines');
    for (const count of ['11,000', '10,000', '1,000', '1,200', '12,500', '1,234.5']) expect(text).toContain(count);
    expect(text).not.toMatch(/\d{4}/);
  });
});
