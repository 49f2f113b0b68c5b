// Progress on standard error: on a terminal one line redrawn in place (bar, done, failed, rate, ETA),
// cleared at the end; elsewhere one plain line every 5 seconds, never a redraw.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PLAIN_EVERY_MS, Progress } from '../../../src/cli/batch/progress.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

const output = (isTTY: boolean) => {
  const written: string[] = [];
  return { isTTY, written, write: (text: string) => written.push(text) };
};

describe('progress', () => {
  it('on a terminal: a bar with done, failed, rate and ETA, redrawn in place, then cleared', () => {
    const tty = output(true);
    const progress = new Progress(tty, () => ({ done: 50, failed: 2, total: 100 }));
    vi.advanceTimersByTime(1000);
    const last = tty.written.at(-1)!;
    expect(last.startsWith('\r\u001b[2K[##########----------] ')).toBe(true);
    expect(last).toContain('50/100 done, 2 failed, 50.0/s, ETA 1 s');
    expect(tty.written.join('')).not.toContain('\n');
    progress.stop();
    expect(tty.written.at(-1)).toBe('\r\u001b[2K');
  });

  it('elsewhere: one line every 5 s, and nothing to clear', () => {
    const plain = output(false);
    const progress = new Progress(plain, () => ({ done: 10, failed: 0, total: 20 }));
    vi.advanceTimersByTime(PLAIN_EVERY_MS - 1);
    expect(plain.written).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(plain.written).toEqual([`progress: 10/20 done, 0 failed, 2.0/s, ETA 5 s\n`]);
    progress.stop();
    expect(plain.written).toHaveLength(1);
  });
});
