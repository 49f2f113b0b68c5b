// Children that die with the process that started them, even when it is killed outright: the kernel's
// parent-death signal, set by util-linux's setpriv, which then execs the command (same pid).
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const SETPRIV = '/usr/bin/setpriv';

export function spawnTied(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  if (existsSync(SETPRIV)) return spawn(SETPRIV, ['--pdeathsig', 'KILL', command, ...args], options);
  // Without setpriv the child still ends with a normal exit of this process, not with a SIGKILL of it.
  const child = spawn(command, args, options);
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  child.once('exit', () => process.off('exit', kill));
  return child;
}
