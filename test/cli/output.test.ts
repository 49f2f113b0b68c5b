// The one terminal writer (src/cli/output.ts): every line masked and its control characters escaped,
// back-pressure through drained(), and a closed output (EPIPE) that ends writing quietly. The real
// pipes into `head`: test/cli/batch/world.matrix.test.ts.
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { EXIT_OUTPUT_CLOSED } from '../../src/cli/connection/exit-codes.js';
import { shownPath, terminal } from '../../src/cli/output.js';
import { main } from '../../src/cli/main.js';
import { defineCommand } from '../../src/cli/command.js';

const collect = () => {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
};

describe('the terminal', () => {
  it('masks CPFs and escapes control characters in every line, a line break in a name included', () => {
    const out = collect();
    const err = collect();
    const io = terminal(out.stream, err.stream);
    const name = 'dados/529.982.247-25\nDone: 0 lines\u001b[2J.jsonl';
    io.err(`--input ${shownPath(name)} cannot be read`);
    io.out('two\nlines');
    expect(err.text()).not.toContain('529.982.247-25');
    expect(err.text()).not.toContain('\u001b');
    // One line: the forged summary line stays inside it.
    expect(err.text().split('\n')).toHaveLength(2);
    expect(err.text()).toMatch(/\\n/);
    expect(out.text()).toBe('two\nlines\n');
  });

  it("shows the sandbox banner's synthetic token and CPF as they are (outSynthetic), escaped, on stdout only", () => {
    const out = collect();
    const err = collect();
    const io = terminal(out.stream, err.stream);
    const line = 'client 1: Authorization: Bearer sbx_3f2a9c1d0e4b  DocumentNumber=52998224725';
    io.outSynthetic(`${line}\u001b[2J`);
    io.out(line);
    const [shown, masked, rest] = out.text().split('\n');
    expect(shown).toBe(`${line}\\x1b[2J`);
    // The same line through out: masked, as every other line is.
    expect(masked).not.toContain('sbx_3f2a9c1d0e4b');
    expect(masked).not.toContain('52998224725');
    expect(rest).toBe('');
    expect(err.text()).toBe('');
  });

  it('waits for a slow reader (drained) instead of buffering without bound', async () => {
    const slow = new PassThrough({ highWaterMark: 16 });
    const io = terminal(slow, collect().stream);
    io.out('x'.repeat(100));
    let drained = false;
    const waiting = io.drained().then(() => {
      drained = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(drained).toBe(false);
    slow.resume();
    await waiting;
    expect(drained).toBe(true);
  });

  it('a closed output (EPIPE) ends writing quietly, aborts closed, and main says 141', async () => {
    const broken = new Writable({
      write(_chunk, _encoding, done) {
        done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    const io = terminal(broken, collect().stream);
    const command = defineCommand({
      name: 'talk',
      summary: 'talks',
      usage: '[options]',
      options: {},
      async run(_values, context) {
        for (let i = 0; i < 1000; i += 1) {
          context.out(`line ${i}`);
          await context.drained?.();
          if (context.closed?.aborted) return 1;
        }
        return 0;
      },
    });
    const code = await main(['talk'], [command], io);
    expect(io.closed.aborted).toBe(true);
    expect(code).toBe(EXIT_OUTPUT_CLOSED);
    // Writing after the close is a no-op, never a throw.
    expect(() => io.out('more')).not.toThrow();
  });
});
