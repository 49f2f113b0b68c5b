// The contract as other tools read it: three independent code generators (hey-api, orval and
// swagger-typescript-api) each generate types from the bundled spec, and a real sandbox page, served
// over HTTP, must type-check against each one's `PixKeyList` with no error. The page is a literal, so
// every value is checked against the generated type; a holder of a kind the contract does not know
// must not, so the types are neither `any` nor `never`. The generators are installed on demand from
// tools/generators/package-lock.json (scripts/lib/tool-cache.mjs), not by the package's `npm ci`.
// They declare Node 22.18 or later but generate on Node 20.19 too (measured with the pinned versions).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedTool, toolBin } from '../../scripts/lib/tool-cache.mjs';
import { createSandbox } from '../../src/sandbox/index.js';
import type { PixKeyList } from '../../src/types.js';
import { bundledSpecFile } from '../support/spec.js';
import { spawnTied } from '../support/tied-spawn.js';

interface Generator {
  name: string;
  pkg: string;
  bin: string;
  args: (spec: string, out: string) => string[];
  /** The module, relative to the output folder, that exports `PixKeyList`. */
  types: string;
}

const GENERATORS: Generator[] = [
  {
    name: 'hey-api',
    pkg: '@hey-api/openapi-ts',
    bin: 'openapi-ts',
    args: (spec, out) => ['-i', spec, '-o', out],
    types: 'types.gen',
  },
  {
    name: 'orval',
    pkg: 'orval',
    bin: 'orval',
    args: (spec, out) => ['--input', spec, '--output', join(out, 'api.ts'), '--client', 'fetch'],
    types: 'api',
  },
  {
    name: 'swagger-typescript-api',
    pkg: 'swagger-typescript-api',
    bin: 'swagger-typescript-api',
    args: (spec, out) => ['generate', '-p', spec, '-o', out, '-n', 'api.ts'],
    types: 'api',
  },
];

/** Runs a command to its end; its exit code and everything it printed. */
function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawnTied(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, output }));
  });
}

/** A consumer of the generated types: the real page as a typed literal, and code that reads its holders. */
const consumer = (types: string, page: PixKeyList) => `import type { PixKeyList } from './${types}';

export const page: PixKeyList = ${JSON.stringify(page, null, 1)};

export function holders(list: PixKeyList): string[] {
  return list.data.map((key) => {
    const holder = key.beneficiary_entity;
    if (holder.document_type === 'cnpj') return \`\${holder.name}: CNPJ \${holder.document}\`;
    return \`\${holder.name}: CPF \${holder.document.slice(-2)}\`;
  });
}

const [first] = page.data;
export const unknownKind: PixKeyList = {
  cursor: page.cursor,
  // @ts-expect-error The contract knows two kinds of holder: a third one must not type-check.
  data: [{ ...first!, beneficiary_entity: { name: 'x', document_type: 'rg', document: '123' } }],
};
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    noEmit: true,
    target: 'es2022',
    module: 'esnext',
    moduleResolution: 'bundler',
    lib: ['es2022', 'dom', 'dom.iterable'],
    types: [],
  },
  files: ['consumer.ts'],
};

let work: string;
let toolDir: string;
let page: PixKeyList;

beforeAll(async () => {
  toolDir = await installedTool('generators');
  work = await mkdtemp(join(tmpdir(), 'baas-generators-'));
  // A real page: 200 keys of the default seed with 100 keys per account, which include company
  // holders (cnpj), every key type and every key status; served over HTTP on 127.0.0.1.
  const sandbox = createSandbox({ keysPerAccount: 100 });
  const running = await sandbox.listen();
  try {
    const response = await fetch(`${running.url}/v2/api/pix/keys/list-keys?limit=200`, {
      headers: { authorization: `Bearer ${sandbox.clients[0]!.token}`, 'user-agent': 'generators-test/1' },
    });
    expect(response.status).toBe(200);
    page = (await response.json()) as PixKeyList;
  } finally {
    await running.stop();
  }
}, 600_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('independent code generators on the bundled spec', () => {
  it('the page holds both kinds of holder', () => {
    const kinds = new Set(page.data.map((key) => key.beneficiary_entity.document_type));
    expect([...kinds].sort()).toEqual(['cnpj', 'cpf']);
    expect(page.data).toHaveLength(200);
  });

  it.each(GENERATORS)(
    '$name types a real sandbox page with no error',
    async ({ name, pkg, bin, args, types }) => {
      const out = join(work, name);
      const generated = await run(
        process.execPath,
        [await toolBin(toolDir, pkg, bin), ...args(bundledSpecFile, out)],
        work,
      );
      expect(generated.code, generated.output).toBe(0);
      await writeFile(join(out, 'consumer.ts'), consumer(types, page));
      await writeFile(join(out, 'tsconfig.json'), JSON.stringify(TSCONFIG));
      // The TypeScript the lock pins beside the generators, whatever the repository's own is.
      const tsc = join(toolDir, 'node_modules', 'typescript', 'bin', 'tsc');
      const checked = await run(process.execPath, [tsc, '-p', join(out, 'tsconfig.json')], out);
      const errors = checked.output.split('\n').filter((line) => line.includes('error TS'));
      expect(errors, checked.output.slice(0, 4000)).toEqual([]);
      expect(checked.code, checked.output.slice(0, 4000)).toBe(0);
    },
    180_000,
  );
});
