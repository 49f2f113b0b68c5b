// The one list a batch run undoes what it holds with (src/cli/batch/dispose-list.ts): last added
// first, each step once (one run early is skipped later), every step even after one failed, and the
// run's own error before a step's.
import { describe, expect, it } from 'vitest';
import { DisposeList } from '../../../src/cli/batch/dispose-list.js';

describe('DisposeList', () => {
  it('runs the steps last added first, once, however often it is disposed', async () => {
    const ran: string[] = [];
    const list = new DisposeList();
    for (const name of ['credentials', 'lock', 'journal', 'client']) list.add(() => void ran.push(name));
    await list.dispose();
    await list.dispose();
    expect(ran).toEqual(['client', 'journal', 'lock', 'credentials']);
    expect(() => list.add(() => undefined)).toThrow(/after the list ran/);
  });

  it('a step run early is not run again by the list', async () => {
    const ran: string[] = [];
    const list = new DisposeList();
    list.add(() => void ran.push('lock'));
    const closeJournal = list.add(async () => void ran.push('journal'));
    list.add(() => void ran.push('client'));
    await closeJournal();
    await closeJournal();
    await list.dispose();
    expect(ran).toEqual(['journal', 'client', 'lock']);
  });

  it('every step runs when one fails; the first failure (in the order they ran) is thrown after all', async () => {
    const ran: string[] = [];
    const list = new DisposeList();
    list.add(() => void ran.push('first'));
    list.add(() => {
      ran.push('second');
      throw new Error('second failed');
    });
    list.add(async () => {
      ran.push('third');
      throw new Error('third failed');
    });
    await expect(list.dispose()).rejects.toThrow('third failed');
    expect(ran).toEqual(['third', 'second', 'first']);
  });

  it("disposeAfter: the steps run whether the body resolves or throws, and the body's error is the one thrown", async () => {
    const ran: string[] = [];
    const ok = new DisposeList();
    ok.add(() => void ran.push('ok step'));
    await expect(ok.disposeAfter(async () => 7)).resolves.toBe(7);
    const failing = new DisposeList();
    failing.add(() => {
      ran.push('failing step');
      throw new Error('the step failed');
    });
    await expect(
      failing.disposeAfter(async () => {
        throw new Error('the run failed');
      }),
    ).rejects.toThrow('the run failed');
    const stepOnly = new DisposeList();
    stepOnly.add(() => {
      throw new Error('the step failed');
    });
    await expect(stepOnly.disposeAfter(async () => 1)).rejects.toThrow('the step failed');
    expect(ran).toEqual(['ok step', 'failing step']);
  });
});
