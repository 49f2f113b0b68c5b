// A stranger's fault specs with a typo: each must be refused, naming the member and the field meant,
// instead of arming a fault that changes nothing (the test of retry handling then passes for nothing).
import { describe, expect, it } from 'vitest';
import { createSandbox, type Fault } from '../../src/sandbox/index.js';

const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RangeError);
    return (error as Error).message;
  }
  return 'accepted';
};

describe('a fault with a member that is not a field', () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ operation: 'listPixKeys', stauts: 503 }, 'stauts is not a field of a fault; did you mean status?'],
    [{ operation: 'listPixKeys', status: 503, time: 2 }, 'time is not a field of a fault; did you mean times?'],
    [
      { operation: 'listPixKeys', status: 429, retryAfter: 5 },
      'retryAfter is not a field of a fault; did you mean retryAfterSeconds?',
    ],
    [{ operation: 'listPixKeys', status: 503, Status: 503 }, 'Status is not a field of a fault; did you mean status?'],
    [
      { operation: 'listPixKeys', status: 503, foo: 1 },
      'foo is not a field of a fault (fields: operation, times, share',
    ],
  ];
  it.each(cases)('%j is refused by inject() and at creation, naming it', (fault, words) => {
    const sandbox = createSandbox({ seed: 'typo' });
    expect(refusal(() => sandbox.inject(fault as unknown as Fault))).toContain(`sandbox fault: ${words}`);
    expect(refusal(() => createSandbox({ faults: [fault as unknown as Fault] }))).toContain(
      `createSandbox: faults[0].${words}`,
    );
  });

  it('a member whose name is not a name (it may be data) is refused without showing it', () => {
    const message = refusal(() =>
      createSandbox({ seed: 'typo' }).inject({ operation: '*', status: 503, '529.982.247-25': 1 } as Fault),
    );
    expect(message).toMatch(/not a field of a fault \(not shown/);
    expect(message).not.toContain('529');
  });
});

describe('a fault that would change nothing', () => {
  it.each([
    [{ operation: 'listPixKeys' }, 'fault needs a status, delayMs or drop'],
    [{ operation: 'listPixKeys', drop: false }, 'fault needs a status, delayMs or drop'],
    [{ operation: '*', body: { title: 'x' } }, 'body needs a status'],
    [{ operation: '*', headers: { 'x-a': 'b' } }, 'headers needs a status'],
  ])('%j is refused', (fault, words) => {
    expect(refusal(() => createSandbox({ seed: 'noop' }).inject(fault as Fault))).toContain(words);
  });

  it('a delay alone, a drop alone and a status alone are still faults', () => {
    const sandbox = createSandbox({ seed: 'noop' });
    for (const fault of [
      { operation: '*', delayMs: 0 },
      { operation: '*', drop: true },
      { operation: '*', status: 503 },
    ] as Fault[])
      expect(refusal(() => sandbox.inject(fault))).toBe('accepted');
  });
});
