// Finds a Chromium for the browser tests: CHROMIUM_PATH, then the usual install paths; installs
// Debian's package where apt-get can be used as root; otherwise fails saying how to get one.
// Run directly (`node scripts/lib/chromium.mjs`, as .ci/run does) it prints the path or exits 1.
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];
const INSTALL = 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium';
const HOW_TO =
  'The docs test needs Chromium. Install it (Debian/Ubuntu: `sudo apt-get install -y chromium`) or set CHROMIUM_PATH to a Chromium or Chrome executable.';

// Headless and quiet: no GPU, no sandbox (containers run as root), and none of the background
// requests (updates, sync, field trials) that would count as traffic leaving the page.
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const executable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The Chromium to use, or undefined. A CHROMIUM_PATH that is not executable is an error, not a fallback. */
export function findChromium(candidates = CANDIDATES) {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!executable(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} is not an executable file. ${HOW_TO}`);
    return fromEnv;
  }
  return candidates.find(executable);
}

const canInstall = () => process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');

function aptInstall() {
  return new Promise((resolvePromise, reject) => {
    // Asynchronous so a test runner stays responsive during a download that can take minutes. Its
    // output goes to stderr: stdout carries only the path when this file runs as a command.
    const child = spawn('/bin/sh', ['-c', INSTALL], { stdio: ['ignore', 2, 2] });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolvePromise() : reject(new Error(`\`${INSTALL}\` exited with ${code}. ${HOW_TO}`)),
    );
  });
}

/**
 * Finds Chromium, installing it with apt-get when running as root; rejects with how to get one.
 * The options exist for the test of the failure message.
 */
export async function ensureChromium({ candidates = CANDIDATES, allowInstall = canInstall() } = {}) {
  const found = findChromium(candidates);
  if (found) return found;
  if (allowInstall) {
    console.error(`Chromium not found; installing it: ${INSTALL}`);
    await aptInstall();
    const installed = findChromium(candidates);
    if (installed) return installed;
  }
  throw new Error(HOW_TO);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  ensureChromium().then(
    (path) => console.log(path),
    (error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
