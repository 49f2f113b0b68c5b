// What a refusal says, as the tests read it: the error a call throws, checked to be of the class the
// test expects, or its message. A call that throws nothing fails the test ("accepted").
import { expect } from 'vitest';

/** The error `run` throws, checked to be a `type`. */
export function thrownBy<E extends Error>(run: () => unknown, type: abstract new (...args: never[]) => E): E {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return error as E;
  }
  throw new Error('accepted');
}

/** The message of the error `run` throws, checked to be a `type`. */
export const refusalOf = (run: () => unknown, type: abstract new (...args: never[]) => Error): string =>
  thrownBy(run, type).message;
