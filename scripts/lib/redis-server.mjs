// Finds a redis-server for the shared-limit test: REDIS_SERVER_PATH, then the usual install paths;
// installs Debian's package where apt-get can be used as root (as chromium.mjs does for Chromium);
// otherwise fails saying how to get one. Run directly (`node scripts/lib/redis-server.mjs`) it prints
// the path or exits 1.
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const CANDIDATES = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'];
// Test files run in parallel, each may get here: flock lets one install while the others wait, then
// they find it installed. The dpkg lock timeout waits for any other apt-get (Chromium's) instead of failing.
const APT = 'apt-get -o DPkg::Lock::Timeout=300';
const INSTALL = `flock /tmp/baas-pix-contract-apt.lock sh -c 'test -x /usr/bin/redis-server || { ${APT} update -qq && DEBIAN_FRONTEND=noninteractive ${APT} install -y -qq redis-server; }'`;
const HOW_TO =
  'The shared-limit test needs redis-server. Install it (Debian/Ubuntu: `sudo apt-get install -y redis-server`) or set REDIS_SERVER_PATH to a redis-server executable.';

const executable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The redis-server to use, or undefined. A REDIS_SERVER_PATH that is not executable is an error, not a fallback. */
export function findRedisServer(candidates = CANDIDATES) {
  const fromEnv = process.env.REDIS_SERVER_PATH;
  if (fromEnv) {
    if (!executable(fromEnv)) throw new Error(`REDIS_SERVER_PATH=${fromEnv} is not an executable file. ${HOW_TO}`);
    return fromEnv;
  }
  return candidates.find(executable);
}

const canInstall = () => process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');

function aptInstall() {
  return new Promise((resolvePromise, reject) => {
    // Asynchronous so a test runner stays responsive during the download. Its output goes to
    // stderr: stdout carries only the path when this file runs as a command.
    const child = spawn('/bin/sh', ['-c', INSTALL], { stdio: ['ignore', 2, 2] });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolvePromise() : reject(new Error(`\`${INSTALL}\` exited with ${code}. ${HOW_TO}`)),
    );
  });
}

/**
 * Finds redis-server, installing it with apt-get when running as root; rejects with how to get one.
 * The options exist for the test of the failure message.
 */
export async function ensureRedisServer({ candidates = CANDIDATES, allowInstall = canInstall() } = {}) {
  const found = findRedisServer(candidates);
  if (found) return found;
  if (allowInstall) {
    console.error(`redis-server not found; installing it: ${INSTALL}`);
    await aptInstall();
    const installed = findRedisServer(candidates);
    if (installed) return installed;
  }
  throw new Error(HOW_TO);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  ensureRedisServer().then(
    (path) => console.log(path),
    (error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
