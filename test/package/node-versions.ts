// The Node.js versions the package is tested on (package.json `engines` says the same; a test holds
// them together). This machine has one Node; the others come from the `node` package on the npm
// registry (`npx -y node@22`), cached by npx after the first run.
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';

export const NODE_MAJORS = [20, 22, 24] as const;

const found = new Map<number, Promise<string>>();

/** The path of a Node.js binary of this major version: this process's own, or one from npx. */
export function nodeBinary(major: number): Promise<string> {
  if (Number(process.versions.node.split('.')[0]) === major) return Promise.resolve(process.execPath);
  let binary = found.get(major);
  if (!binary) {
    binary = promisify(execFile)('npx', ['-y', `node@${major}`, '-p', 'process.execPath'], {
      cwd: tmpdir(),
      timeout: 5 * 60_000,
    })
      .then(({ stdout }) => stdout.trim().split('\n').pop()!)
      .catch((error: { message: string; stderr?: string }) => {
        throw new Error(
          `Could not get Node ${major} with \`npx -y node@${major}\` (the npm registry's node package): ${error.message}\n${error.stderr ?? ''}`,
        );
      });
    found.set(major, binary);
  }
  return binary;
}
