// Deadlines that measure only the time this process was free to run. A call that waits on nothing
// (a hang) lets the event loop tick on time, and every tick counts; a process that is descheduled
// on a busy machine, or whose loop is busy with the call's own work, ticks late, and only the tick's
// own interval counts. So a deadline of N ms fails a hang after about N ms on an idle machine and
// stretches with the load instead of failing a correct client that merely ran late.

const TICK_MS = 10;

export interface OnTimeDeadline {
  /** Resolves once `ms` of on-time ticks have passed. */
  readonly expired: Promise<void>;
  /** On-time milliseconds counted so far. */
  readonly onTimeMs: number;
  /** Stops the ticks (no handle is left behind). */
  cancel(): void;
}

export function onTimeDeadline(ms: number): OnTimeDeadline {
  let counted = 0;
  let last = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let resolve!: () => void;
  const expired = new Promise<void>((done) => (resolve = done));
  const tick = (): void => {
    const now = performance.now();
    // However late this tick fired, it stands for one interval of a loop that was free to run.
    counted += Math.min(now - last, TICK_MS);
    last = now;
    if (counted >= ms) resolve();
    else timer = setTimeout(tick, TICK_MS);
  };
  timer = setTimeout(tick, TICK_MS);
  return {
    expired,
    get onTimeMs() {
      return counted;
    },
    cancel: () => clearTimeout(timer),
  };
}

/** Polls `check` every 50 ms until it holds (true) or `ms` on-time milliseconds pass (false). */
export async function eventuallyOnTime(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = onTimeDeadline(ms);
  let expired = false;
  void deadline.expired.then(() => (expired = true));
  try {
    for (;;) {
      if (await check()) return true;
      if (expired) return false;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    deadline.cancel();
  }
}
