// Finds LibreOffice's headless `soffice` for the spreadsheet matrix test: SOFFICE_PATH, then the usual
// install paths; installs Debian's libreoffice-calc-nogui where apt-get can be used as root; otherwise
// fails saying how to get it. Run directly (`node scripts/lib/libreoffice.mjs`, as .ci/run does) it
// prints the path or exits 1.
import { debianTool, runAsCommand } from './debian-tool.mjs';

const CANDIDATES = ['/usr/bin/soffice', '/usr/bin/libreoffice', '/usr/lib/libreoffice/program/soffice'];
const HOW_TO =
  'The spreadsheet test needs LibreOffice Calc. Install it (Debian/Ubuntu: `sudo apt-get install -y libreoffice-calc-nogui`) or set SOFFICE_PATH to a soffice executable.';

const libreoffice = debianTool({
  name: 'LibreOffice Calc',
  envVar: 'SOFFICE_PATH',
  pkg: 'libreoffice-calc-nogui',
  candidates: CANDIDATES,
  howTo: HOW_TO,
});

/** The soffice to use, or undefined. A SOFFICE_PATH that is not executable is an error, not a fallback. */
export const findSoffice = libreoffice.find;
/** Finds soffice, installing LibreOffice Calc with apt-get when running as root; rejects with how to get it. */
export const ensureSoffice = libreoffice.ensure;

runAsCommand(import.meta.url, ensureSoffice);
