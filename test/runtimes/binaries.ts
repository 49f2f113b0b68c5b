// The runtimes' binaries, from the npm packages `bun`, `deno` and `workerd`, each a tool of the tool
// cache (tools/<runtime>/, installed on first need by scripts/lib/tools.mjs). Each ships its binary
// in a platform package (an optional dependency, e.g. @oven/bun-linux-x64), which is used directly:
// the packages' install scripts, which only copy or download the same binary, do not run
// (allowScripts in the tool's package.json). A binary that is not there fails the test saying how to
// get it.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { ensureTool } from '../../scripts/lib/tools.mjs';

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

const resolvePackageFile = (modules: string, path: string): string | undefined => {
  const require = createRequire(join(modules, 'package.json'));
  const [scope, name, ...rest] = path.split('/');
  try {
    const root = dirname(require.resolve(`${scope}/${name}/package.json`));
    const file = join(root, ...rest);
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
};

/** The binary of `runtime` on this machine, its tool installed first; throws how to get it when it is missing. */
export async function runtimeBinary(runtime: Runtime): Promise<string> {
  const modules = await ensureTool(runtime);
  for (const candidate of candidates(runtime)) {
    const found = resolvePackageFile(modules, candidate);
    if (found) return found;
  }
  throw new Error(
    `No ${runtime} binary for ${platform()}-${arch()}: looked for ${candidates(runtime).join(', ')} in ${modules}. ` +
      `Run \`npm run tools -- ${runtime}\` (the tool's \`${runtime}\` package brings it as an optional platform ` +
      'package from the npm registry); remove that folder first if optional dependencies were omitted.',
  );
}
