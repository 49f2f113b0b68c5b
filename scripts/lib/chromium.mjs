// Finds a Chromium for the browser tests: CHROMIUM_PATH, then the usual install paths; installs
// Debian's package where apt-get can be used as root; otherwise fails saying how to get one.
// Run directly (`node scripts/lib/chromium.mjs`, as .ci/run does) it prints the path or exits 1.
import { debianTool, runAsCommand } from './debian-tool.mjs';

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];
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

const chromium = debianTool({
  name: 'Chromium',
  envVar: 'CHROMIUM_PATH',
  pkg: 'chromium',
  candidates: CANDIDATES,
  howTo: HOW_TO,
});

/** The Chromium to use, or undefined. A CHROMIUM_PATH that is not executable is an error, not a fallback. */
export const findChromium = chromium.find;
/** Finds Chromium, installing it with apt-get when running as root; rejects with how to get one. */
export const ensureChromium = chromium.ensure;

runAsCommand(import.meta.url, ensureChromium);
