// The runtimes' binaries, from the npm packages `bun`, `deno` and `workerd` (devDependencies). Each
// ships its binary in a platform package (an optional dependency, e.g. @oven/bun-linux-x64), which is
// used directly: the packages' install scripts, which only copy or download the same binary, do not
// run (allowScripts in package.json). A binary that is not there fails the test saying how to get it.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot } from '../../scripts/lib/paths.mjs';

const require = createRequire(join(repoRoot, 'package.json'));

export type Runtime = 'bun' | 'deno' | 'workerd';

/** Where each platform package keeps its binary, for this machine. */
function candidates(runtime: Runtime): string[] {
  const os = platform();
  const cpu = arch() === 'arm64' ? 'aarch64' : 'x64';
  const exe = os === 'win32' ? '.exe' : '';
  switch (runtime) {
    case 'bun': {
      const base = `@oven/bun-${os === 'win32' ? 'windows' : os}-${cpu}`;
      return [`${base}/bin/bun${exe}`, `${base}-musl/bin/bun${exe}`, `${base}-baseline/bin/bun${exe}`];
    }
    case 'deno': {
      const name = os === 'win32' ? 'win32' : os === 'darwin' ? 'darwin' : 'linux';
      const cpuName = arch() === 'arm64' ? 'arm64' : 'x64';
      return [`@deno/${name}-${cpuName}${os === 'linux' ? '-glibc' : ''}/deno${exe}`];
    }
    case 'workerd': {
      const cpuName = arch() === 'arm64' ? 'arm64' : '64';
      return [`@cloudflare/workerd-${os === 'win32' ? 'windows' : os}-${cpuName}/bin/workerd${exe}`];
    }
  }
}

const resolvePackageFile = (path: string): string | undefined => {
  const [scope, name, ...rest] = path.split('/');
  try {
    const root = dirname(require.resolve(`${scope}/${name}/package.json`));
    const file = join(root, ...rest);
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
};

/** The binary of `runtime` on this machine; throws how to get it when it is missing. */
export function runtimeBinary(runtime: Runtime): string {
  for (const candidate of candidates(runtime)) {
    const found = resolvePackageFile(candidate);
    if (found) return found;
  }
  throw new Error(
    `No ${runtime} binary for ${platform()}-${arch()}: looked for ${candidates(runtime).join(', ')}. ` +
      `Run \`npm ci\` (the devDependency \`${runtime}\` brings it as an optional platform package ` +
      'from the npm registry), ' +
      `or \`npm install --no-save ${runtime}\` if optional dependencies were omitted.`,
  );
}
