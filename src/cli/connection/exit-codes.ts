// The exit statuses of every command, in one place: what a script or CI job branching on `$?` reads.
// 0 done; 1 the run failed (verify: the provider drifted or a check failed; a batch: an item failed or the
// endpoint was unavailable); 2 the command line must change before a rerun can work (a usage error,
// credentials refused, an optional peer not installed: ../peers.ts); 128 + the signal's number for a run stopped by a signal, as a shell says it.
import type { StopSignal } from '../batch/stop.js';

/** The statuses that are not a signal's. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** The exit code of a run stopped by `signal`: 128 + its number, as a shell reports it. */
export const EXIT_ON: Record<StopSignal, number> = { SIGINT: 130, SIGTERM: 143, SIGPIPE: 141 };

/** The exit status when standard output or error was closed under the command: 128 + SIGPIPE, as a shell says it. */
export const EXIT_OUTPUT_CLOSED = EXIT_ON.SIGPIPE;
