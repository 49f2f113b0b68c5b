// The rule of the `process` and `prism` projects (vitest.config.ts; TESTING.md, "Two projects"): their
// files start processes and servers or send to the run's Prism, and share one module graph per fork
// (a module imported once per worker, not once per file), so none may leave global state behind for
// the next file of its fork. This setup
// file, run before each of them, fails the file in its afterAll when it leaves fake timers on, a global
// changed, a function of process, console or a Node module replaced (spies vitest restores after the
// file included), an environment variable changed, a process listener added or the working directory
// changed (test/support/global-state.ts).
// A file that mocks a module or resets the registry runs in the `isolated` project instead.
import { failOnLeftBehind } from './global-state.js';

failOnLeftBehind(
  'in the process and prism projects (vitest.config.ts): their files share a module graph per fork; ' +
    'a file that needs a fresh one mocks the module it replaces (vi.mock) and so runs in the isolated project',
);
