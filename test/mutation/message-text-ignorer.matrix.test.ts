// The message-text ignorer (stryker-plugins/message-text-ignorer.mjs), run through StrykerJS's own
// instrumenter (a dependency of @stryker-mutator/core) on small sources, as a mutation run would.
// StrykerJS is a tool of the tool cache (tools/stryker), installed on first need: a matrix test.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureTool } from '../../scripts/lib/tools.mjs';
import { messageTextIgnorer, pinnedIn } from '../../stryker-plugins/message-text-ignorer.mjs';

/** The part of @stryker-mutator/instrumenter's API used here. */
interface Instrumented {
  mutants: {
    mutatorName: string;
    replacement: string;
    status?: string;
    statusReason?: string;
    location: { start: { line: number } };
  }[];
}
type InstrumenterClass = new (
  log: object,
) => {
  instrument(files: { name: string; content: string; mutate: boolean }[], options: object): Promise<Instrumented>;
};
let Instrumenter: InstrumenterClass;

beforeAll(async () => {
  const modules = await ensureTool('stryker');
  const entry = createRequire(join(modules, 'package.json')).resolve('@stryker-mutator/instrumenter');
  ({ Instrumenter } = (await import(pathToFileURL(entry).href)) as { Instrumenter: InstrumenterClass });
}, 600_000);

const quiet = () => false;
const logger = {
  isTraceEnabled: quiet,
  isDebugEnabled: quiet,
  isInfoEnabled: quiet,
  isWarnEnabled: quiet,
  isErrorEnabled: quiet,
  isFatalEnabled: quiet,
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
  fatal() {},
};

interface Seen {
  line: number;
  replacement: string;
  reason: string | undefined;
}

/** The StringLiteral mutants of a source, each with its line (1-based) and the reason it is ignored, if it is. */
async function stringMutants(content: string, name = '/repo/src/client/x.ts'): Promise<Seen[]> {
  const result = await new Instrumenter(logger).instrument([{ name, content, mutate: true }], {
    ignorers: [messageTextIgnorer],
    plugins: null,
    excludedMutations: [],
  });
  return result.mutants
    .filter((m) => m.mutatorName === 'StringLiteral')
    .map((m) => ({
      line: m.location.start.line + 1,
      replacement: m.replacement,
      reason: m.status === 'Ignored' ? m.statusReason : undefined,
    }));
}

const ignoredLines = (mutants: Seen[]) => mutants.filter((m) => m.reason !== undefined).map((m) => m.line);
const mutatedLines = (mutants: Seen[]) => mutants.filter((m) => m.reason === undefined).map((m) => m.line);

describe('the message-text ignorer', () => {
  it("ignores the message of `new …Error(…)`, naming the test that pins that part of src/'s formats", async () => {
    const mutants = await stringMutants(
      [
        'export function check(name: string, value: number) {',
        '  if (value < 0) throw new RangeError(`createSandbox: ${name} must be at least 0, got ${value}`);',
        "  if (value > 9) throw new UsageError('the value is too large');",
        "  return new BaasTokenError('the token request failed', { name });",
        '}',
      ].join('\n'),
      '/repo/src/sandbox/options.ts',
    );
    expect(ignoredLines(mutants)).toEqual([2, 3, 4]);
    expect(new Set(mutants.map((m) => m.reason))).toEqual(
      new Set(['message text: its format is pinned once in test/sandbox/answers.test.ts']),
    );
  });

  it('keeps names mutated: one-word literals, and every literal outside a message (headers, JSON keys, problem types)', async () => {
    const mutants = await stringMutants(
      [
        'export function answer(cert: boolean) {',
        "  if (cert) throw new TypeError(cert ? 'key' : 'cert');",
        "  const headers = { 'content-type': 'application/problem+json', 'retry-after': '1' };",
        "  const problem = { type: 'https://errors.example/validation', title: 'Invalid request body here' };",
        "  return [headers, problem, new Error('Account')];",
        '}',
      ].join('\n'),
    );
    expect(ignoredLines(mutants)).toEqual([]);
    expect(mutatedLines(mutants)).toEqual([2, 2, 3, 3, 4, 4, 5]);
  });

  it('keeps a template mutated when a placeholder holds logic, yet ignores the prose inside it', async () => {
    const mutants = await stringMutants(
      [
        'export function fail(cert: boolean, n: number, secret: string) {',
        "  if (cert) throw new TypeError(`--${cert ? 'key' : 'cert'} is required with the other one`);",
        "  if (n > 1) throw new TypeError(`got ${n === 1 ? 'one problem here' : 'several problems here'}`);",
        '  throw new TypeError(`the secret ends in ${secret.slice(-2)} and is refused`);',
        '}',
      ].join('\n'),
    );
    expect(mutants.filter((m) => m.line === 2).map((m) => m.reason)).toEqual([undefined, undefined, undefined]);
    expect(mutants.filter((m) => m.line === 3).map((m) => [m.replacement, m.reason !== undefined])).toEqual([
      ['``', false],
      ['""', true],
      ['""', true],
    ]);
    expect(mutatedLines(mutants)).toContain(4);
  });

  it("ignores the help's summary, each flag's help lines and the notes, not the usage or values that name the flags", async () => {
    const mutants = await stringMutants(
      [
        'export const mock = defineCommand({',
        "  name: 'mock',",
        "  summary: 'serve the contract with Prism',",
        "  usage: '[--port N] [--host H]',",
        "  options: { port: { type: 'string', value: 'N', help: ['the port to listen on', `the host (default ${HOST})`] } },",
        "  notes: ['Needs Prism installed next to it.'],",
        '});',
        "export const SHARED = { rate: { type: 'string', value: 'N', help: ['requests per second at most'] } };",
      ].join('\n'),
      '/repo/src/cli/mock.ts',
    );
    expect(ignoredLines(mutants)).toEqual([3, 5, 5, 6, 8]);
    expect(mutatedLines(mutants)).toEqual([2, 4, 5, 5, 8, 8]);
    expect(mutants[1]!.reason).toBe('message text: its format is pinned once in test/cli/help.test.ts');
  });

  it('leaves alone prose that is not a message: a string compared, returned or passed to anything but an Error', async () => {
    const mutants = await stringMutants(
      [
        'export function f(text: string) {',
        "  if (text === 'no such thing here') return 'a plain returned sentence';",
        "  console.log('a line of words printed');",
        "  return new Thing('words given to a thing');",
        '}',
      ].join('\n'),
    );
    expect(ignoredLines(mutants)).toEqual([]);
  });

  it('names the pin test of the longest matching part of src/', () => {
    expect(pinnedIn('/repo/src/client/options.ts')).toBe('test/client/option-checks.test.ts');
    expect(pinnedIn('/repo/src/client/call.ts')).toBe('test/client/errors.test.ts');
    expect(pinnedIn('C:\\repo\\src\\tls\\agent.ts')).toBe('test/tls/options.test.ts');
    expect(pinnedIn('/repo/src/errors.ts')).toBe('test/client/errors.test.ts');
    expect(pinnedIn(undefined)).toBe('test/client/errors.test.ts');
  });
});
