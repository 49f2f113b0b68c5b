// Every subcommand, one line each.
import type { Command } from './command.js';
import { docs } from './docs.js';
import { exportKeys } from './export-keys.js';
import { mock } from './mock.js';
import { sandbox } from './sandbox.js';
import { updateMany } from './update-many.js';
import { verify } from './verify.js';

export const COMMANDS: readonly Command[] = [mock, sandbox, verify, updateMany, exportKeys, docs];
