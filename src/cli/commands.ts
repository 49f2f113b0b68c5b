// Every subcommand, one line each: the sandbox and verify commands add theirs here
// (`import { sandbox } from './sandbox.js';` and `sandbox,` in the list).
import type { Command } from './command.js';
import { docs } from './docs.js';
import { mock } from './mock.js';

export const COMMANDS: readonly Command[] = [mock, docs];
