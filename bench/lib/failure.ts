// How a benchmark's failure is told: the one place `npm run bench` and every focused run (`node … bench/<name>.ts`)
// turn an error into a line a person can act on, instead of an unhandled rejection's stack.

/** What failed, with Node's error code when there is one ("socket hang up (ECONNRESET)"), then each cause. */
export function described(error: unknown): string {
  const parts: string[] = [];
  for (let at: unknown = error, depth = 0; at !== undefined && depth < 5; depth += 1) {
    const code = (at as { code?: unknown } | null)?.code;
    const message = at instanceof Error ? at.message : String(at);
    parts.push(typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message);
    at = at instanceof Error ? at.cause : undefined;
  }
  // A wrapper that already quotes its cause's message says it once.
  return parts.filter((part, i) => i === 0 || !parts[i - 1]!.includes(part)).join(' ← ');
}

/** Runs a focused benchmark: its failure is printed as one line and the process exits with 1. */
export async function focused(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    console.error(`\nbench failed: ${described(error)}`);
    process.exitCode = 1;
  }
}
