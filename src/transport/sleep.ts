// The package's one wait: the retry loop's (pipeline.ts) between attempts, and the batch's pacing,
// which the loop hands it. A timer no one else arms.
import { MAX_TIMER_MS } from './attempt.js';

/** Whether `ms` is a delay a timer can be armed with as asked: a number from 0 to MAX_TIMER_MS. */
export const isTimerMs = (ms: unknown): ms is number => typeof ms === 'number' && ms >= 0 && ms <= MAX_TIMER_MS;

/**
 * The package's one wait: setTimeout as a promise that a signal can cut short. A wait no timer can
 * hold (over MAX_TIMER_MS, negative, not a number) is refused: Node would fire it at once instead.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!isTimerMs(ms)) return reject(new RangeError(`a wait of ${ms} ms is outside 0 to ${MAX_TIMER_MS} ms`));
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
