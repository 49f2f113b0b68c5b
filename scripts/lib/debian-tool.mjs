// A program a test needs, found or installed the same way for each (Chromium, redis-server): the
// path in its environment variable, then the usual install paths; Debian's package installed where
// apt-get can be used as root; otherwise an error saying how to get it.
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const executable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

const canInstall = () => process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');

// Test files run in parallel and each may get here: flock lets one install while the others wait,
// then they find it installed; the dpkg lock timeout waits for any other apt-get instead of failing.
const APT = 'apt-get -o DPkg::Lock::Timeout=300';
const installCommand = (pkg, installedAt, test) =>
  `flock /tmp/baas-pix-contract-apt.lock sh -c 'test ${test} ${installedAt} || { ${APT} update -qq && DEBIAN_FRONTEND=noninteractive ${APT} install -y -qq ${pkg}; }'`;

/**
 * @param {{ name: string, envVar: string, pkg: string, candidates: string[], howTo: string, file?: boolean }} tool
 *   `file`: the candidates are files the package installs (a Python module), not programs: present, not executable.
 */
export function debianTool({ name, envVar, pkg, candidates, howTo, file = false }) {
  const install = installCommand(pkg, candidates[0], file ? '-e' : '-x');
  const usable = file ? existsSync : executable;

  /** The program to use, or undefined. An env path that is not executable is an error, not a fallback. */
  function find(paths = candidates) {
    const fromEnv = process.env[envVar];
    if (fromEnv) {
      if (!executable(fromEnv)) throw new Error(`${envVar}=${fromEnv} is not an executable file. ${howTo}`);
      return fromEnv;
    }
    return paths.find(usable);
  }

  function aptInstall() {
    return new Promise((resolvePromise, reject) => {
      // Asynchronous so a test runner stays responsive during a download that can take minutes. Its
      // output goes to stderr: stdout carries only the path when a tool's file runs as a command.
      const child = spawn('/bin/sh', ['-c', install], { stdio: ['ignore', 2, 2] });
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolvePromise() : reject(new Error(`\`${install}\` exited with ${code}. ${howTo}`)),
      );
    });
  }

  /** Finds the program, installing it with apt-get when running as root; rejects with how to get it. */
  async function ensure({ candidates: paths = candidates, allowInstall = canInstall() } = {}) {
    const found = find(paths);
    if (found) return found;
    if (allowInstall) {
      console.error(`${name} not found; installing it: ${install}`);
      await aptInstall();
      const installed = find(paths);
      if (installed) return installed;
    }
    throw new Error(howTo);
  }

  return { find, ensure };
}

/** Run as a command (`node scripts/lib/<tool>.mjs`): prints the path, or the error and exits 1. */
export function runAsCommand(moduleUrl, ensure) {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  ensure().then(
    (path) => console.log(path),
    (error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
