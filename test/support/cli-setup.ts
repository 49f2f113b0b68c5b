// A global setup (vitest.config.ts's process project, vitest.matrix.config.ts): builds the command line
// the tests run (test/support/cli.ts) once before the workers start, so they find it built instead of
// each building it at once.
import { builtCli } from '../../scripts/lib/cli-build.mjs';

export function setup(): void {
  builtCli();
}
