// The refusal helpers fail a test when the call is accepted or throws another class of error.
import { describe, expect, it } from 'vitest';
import { refusalOf, thrownBy } from './refusal.js';

describe('refusalOf and thrownBy', () => {
  it('give the error thrown, and its message', () => {
    const error = new RangeError('too many');
    expect(
      thrownBy(() => {
        throw error;
      }, RangeError),
    ).toBe(error);
    expect(
      refusalOf(() => {
        throw error;
      }, Error),
    ).toBe('too many');
  });

  it('fail on a call that is accepted or throws another class', () => {
    expect(() => refusalOf(() => 1, RangeError)).toThrow('accepted');
    expect(() =>
      refusalOf(() => {
        throw new TypeError('wrong kind');
      }, RangeError),
    ).toThrow(/instance of RangeError|toBeInstanceOf|RangeError/);
  });
});
