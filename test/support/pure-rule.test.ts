// The pure project's rule holds (test/support/pure-setup.ts, test/support/global-state.ts): in it, starting a process or listening
// on a socket throws naming the rule, and a file's leftover global state is found. This file is pure
// by the rule of scripts/lib/test-kinds.mjs (it names no process module: it asks the runtime for one).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClassifier } from '../../scripts/lib/test-kinds.mjs';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { leftBehind, snapshot } from './global-state.js';

const builtin = <T>(name: string) =>
  (process as unknown as { getBuiltinModule(name: string): T }).getBuiltinModule(name);

afterEach(() => {
  vi.useRealTimers();
});

describe('the pure project', () => {
  it('is where this file runs', () => {
    expect(createClassifier(repoRoot)('test/support/pure-rule.test.ts').project).toBe('pure');
    expect(createClassifier(repoRoot)('test/support/fault-server.test.ts').project).toBe('process');
  });

  it('leaves to the isolated project a file that mocks a module, resets the registry or starts a real Prism', () => {
    // Patterns, not the calls' text, which would put this file in the isolated project too.
    const classify = createClassifier(repoRoot);
    expect(classify('test/testing/mock-hooks.test.ts').project).toBe('isolated');
    expect(classify('test/testing/mock-hooks.test.ts').reason).toMatch(
      /^test\/testing\/mock-hooks.test.ts calls vi\.mock\(\)$/,
    );
    expect(classify('test/cli/help.test.ts').reason).toMatch(/^test\/cli\/help.test.ts calls vi\.resetModules\(\)$/);
    expect(classify('test/testing/mock.matrix.test.ts').reason).toMatch(
      /^test\/testing\/mock.matrix.test.ts calls startMock\(\)$/,
    );
    // src/ calling startMock (the mock command) makes no in-process command-line test isolated.
    expect(classify('test/cli/docs-page.test.ts').project).toBe('process');
  });

  it('refuses a child process and a listening socket, naming the rule', () => {
    const childProcess = builtin<typeof import('node:child_process')>('node:child_process');
    const net = builtin<typeof import('node:net')>('node:net');
    expect(() => childProcess.spawn('true')).toThrow(/refused in the pure project .*process project/);
    expect(() => childProcess.execFileSync('true')).toThrow(/refused in the pure project/);
    expect(() => net.createServer().listen(0, '127.0.0.1')).toThrow(/listening on a socket .*refused/);
  });

  it('finds fake timers, a global, an environment variable and a process listener left behind', () => {
    const before = snapshot();
    const listener = () => undefined;
    vi.useFakeTimers({ toFake: ['Date'] });
    (globalThis as Record<string, unknown>).leftByATest = 1;
    process.env.LEFT_BY_A_TEST = '1';
    process.on('SIGTERM', listener);
    try {
      expect(leftBehind(before)).toEqual([
        'fake timers still on (call vi.useRealTimers() in afterEach/afterAll)',
        'globalThis[Date] replaced',
        'globalThis[leftByATest] added',
        'process.env.LEFT_BY_A_TEST changed',
        "1 'SIGTERM' listener(s) added to process",
      ]);
    } finally {
      vi.useRealTimers();
      delete (globalThis as Record<string, unknown>).leftByATest;
      delete process.env.LEFT_BY_A_TEST;
      process.off('SIGTERM', listener);
    }
    expect(leftBehind(before)).toEqual([]);
  });

  it('finds a function of process, console or a loaded Node module replaced, and a spy that puts a fake back', () => {
    const fs = builtin<typeof import('node:fs')>('node:fs');
    const before = snapshot();
    const realSetTimeout = globalThis.setTimeout;
    try {
      vi.spyOn(fs, 'readFileSync');
      vi.spyOn(process.stderr, 'write');
      vi.spyOn(console, 'warn');
      vi.spyOn(fs.ReadStream.prototype, 'close');
      expect(leftBehind(before)).toEqual([
        'process.stderr.write replaced',
        'console.warn replaced',
        'node:fs.readFileSync replaced',
        'node:fs.ReadStream.prototype.close replaced',
      ]);
      vi.restoreAllMocks();
      expect(leftBehind(before)).toEqual([]);

      // A spy set on a faked setTimeout, the fake taken away first: restoring the spy (as vitest does
      // after every file) puts the fake back, and no timer of a later file fires.
      vi.useFakeTimers({ toFake: ['setTimeout'] });
      vi.spyOn(globalThis, 'setTimeout');
      vi.useRealTimers();
      expect(leftBehind(before)).toEqual([]);
      vi.restoreAllMocks();
      expect(globalThis.setTimeout).not.toBe(realSetTimeout);
      expect(leftBehind(before)).toEqual(['globalThis[setTimeout] replaced']);
    } finally {
      vi.restoreAllMocks();
      vi.useRealTimers();
      globalThis.setTimeout = realSetTimeout;
    }
    expect(leftBehind(before)).toEqual([]);
  });
});
