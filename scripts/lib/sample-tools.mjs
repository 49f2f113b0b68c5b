// The programs the code-sample test runs the spec's samples with, from Debian's packages: curl, and
// Python 3 with requests (python3-requests). Found where they are; installed with apt-get where it can
// be used as root (as ./chromium.mjs does for Chromium); otherwise an error saying how to get them.
import { execFileSync } from 'node:child_process';
import { debianTool } from './debian-tool.mjs';

const curl = debianTool({
  name: 'curl',
  envVar: 'CURL_PATH',
  pkg: 'curl',
  candidates: ['/usr/bin/curl'],
  howTo:
    'The code-sample test needs curl. Install it (Debian/Ubuntu: `sudo apt-get install -y curl`) or set CURL_PATH.',
});

/** curl, installing Debian's package when running as root; rejects saying how to get it. */
export const ensureCurl = curl.ensure;

// Debian's Python is the one python3-requests installs into; the test runs the sample with it.
const PYTHON = '/usr/bin/python3';
const PYTHON_HOW_TO =
  'The code-sample test needs Python 3 with requests. Install them (Debian/Ubuntu: `sudo apt-get install -y python3-requests`) or set PYTHON_PATH to a python3 that can `import requests`.';
const importsRequests = (python) => {
  try {
    execFileSync(python, ['-c', 'import requests'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
// The package's module is what debianTool looks for: it is there once python3-requests is installed.
const REQUESTS_MODULE = '/usr/lib/python3/dist-packages/requests/__init__.py';
const requests = debianTool({
  name: 'python3-requests',
  envVar: 'PYTHON_PATH',
  pkg: 'python3-requests',
  candidates: [REQUESTS_MODULE],
  howTo: PYTHON_HOW_TO,
  file: true,
});

/** A python3 that imports requests (PYTHON_PATH, else Debian's), installing python3-requests as root. */
export async function ensurePythonRequests(options) {
  const found = await requests.ensure(options);
  const python = found === process.env.PYTHON_PATH ? found : PYTHON;
  if (!importsRequests(python)) throw new Error(`${python} cannot import requests. ${PYTHON_HOW_TO}`);
  return python;
}
