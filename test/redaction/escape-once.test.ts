// Text is escaped once, whatever number of layers it passes through. A pattern's rule
// (`^-?[0-9]{1,12}(\.[0-9]{1,12})?$`, one backslash) read `\\.` in the error's message and `\\\\.` on the
// command line: each layer (the message, the logger's line, the terminal's line) escaped the backslash
// again. Escaping is now idempotent by construction (src/redact.ts, UNSAFE: the backslash is no control,
// and every escape written is printable ASCII), so what a user reads after every layer is what one layer
// writes.
import { inspect } from 'node:util';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { terminal, terminalText, type OutputStream } from '../../src/cli/output.js';
import { BaasValidationError, createBaasClient, type BaasEvent } from '../../src/index.js';
import { escapeControls, escapeJsonControls, redactMessage, redactText, Secrets } from '../../src/redact.js';
import { formatTable } from '../../src/verify/report.js';

const PATTERN = '^-?[0-9]{1,12}(\\.[0-9]{1,12})?$';
const ADDRESS = {
  postalCode: '01310100',
  street: 'Avenida Paulista',
  number: '1578',
  neighborhood: 'Bela Vista',
  city: 'São Paulo',
  state: 'SP' as const,
};
const RULE = `must match the pattern ${PATTERN}, e.g. -46.6558819`;

/** A stream that keeps what is written to it. */
function sink(): OutputStream & { text: () => string } {
  const chunks: string[] = [];
  return {
    write: (chunk, callback) => {
      chunks.push(chunk);
      callback?.(null);
      return true;
    },
    on: () => undefined,
    off: () => undefined,
    text: () => chunks.join(''),
  };
}

/** What a text becomes after every layer it may pass through: a message, a logger's line, a report's line, the terminal. */
const everyLayer = (text: string): string =>
  terminalText(escapeControls(redactMessage(Secrets.none.line(text, 10_000))));

describe('escaping is idempotent', () => {
  // Any text: controls, separators, bidi characters, backslashes and what looks like an escape already.
  const anyText = fc.string({
    maxLength: 200,
    unit: fc.oneof(
      fc.constantFrom('\\', 'x', 'u', 'n', '1', 'b', '\n', '\r', '\t', '\u001b', '\u0085', '\u202e', '\u2028', ' '),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    ),
  });

  test.prop([anyText], { seed: 4242, numRuns: 2000 })('escapeControls of escaped text is that text', (text) => {
    const once = escapeControls(text);
    expect(escapeControls(once)).toBe(once);
    expect(escapeJsonControls(escapeJsonControls(text))).toBe(escapeJsonControls(text));
    expect(once).not.toMatch(/[\p{Cc}\p{Cf}\u2028\u2029]/u);
  });

  // The masking is the same at each layer; a text whose masking is stable (no CPF whose last two digits
  // join the next ones) reads after every layer exactly as one layer writes it.
  test.prop([anyText.filter((text) => redactText(redactText(text)) === redactText(text))], {
    seed: 4243,
    numRuns: 2000,
  })('what a user sees after every layer is the one-layer escape', (text) => {
    expect(everyLayer(text)).toBe(redactMessage(text));
  });

  it('a backslash is kept as it is, a control character escaped once', () => {
    expect(everyLayer('a\\.b\u001b[31m\\x1b')).toBe('a\\.b\\x1b[31m\\x1b');
  });
});

describe("a pattern's backslash on every surface", () => {
  it('the issue, the message, String, JSON, inspect and the terminal show it once', async () => {
    const client = createBaasClient({
      baseUrl: 'https://api.baas.example',
      token: 't0k3n-abcdefgh',
      fetch: () => Promise.reject(new Error('nothing is sent')),
    });
    const error = (await client
      .updateNaturalPerson({
        account: '123456',
        documentNumber: '529.982.247-25',
        body: { address: { ...ADDRESS, latitude: '-23,5613991' } },
      })
      .catch((e: unknown) => e)) as BaasValidationError;
    expect(error).toBeInstanceOf(BaasValidationError);

    const issue = error.issues.find((i) => i.path === '/address/latitude')!;
    expect(issue.rule).toBe(RULE);
    const shown = `/address/latitude ${RULE}`;
    expect(error.message).toContain(shown);
    expect(String(error)).toContain(shown);
    expect((JSON.parse(JSON.stringify(error)) as { message: string }).message).toBe(error.message);
    // util.inspect shows the stack, which starts with the message as it is.
    expect(inspect(error)).toContain(shown);

    // The command line writes the message as every command does (`baas-pix-contract <command>: …`), and
    // update-many's problems as `line N: …`, itself a message.
    const err = sink();
    const io = terminal(sink(), err);
    io.err(`baas-pix-contract update-many: ${error.message}`);
    io.err(Secrets.none.message(`line 2: ${issue.message}`));
    expect(err.text()).toContain(`update-many: ${error.message}\n`);
    expect(err.text()).toContain(`line 2: ${shown}\n`);
    expect(err.text()).not.toContain('\\\\');
  });

  it("a provider's backslash and control character: the message, the logger, the event and the terminal", async () => {
    const detail = `latitude must match ${PATTERN}\u001b[K`;
    const logged: string[] = [];
    const log = (message: string) => logged.push(message);
    const client = createBaasClient({
      baseUrl: 'https://api.baas.example',
      token: 't0k3n-abcdefgh',
      retry: false,
      fetch: async () =>
        new Response(JSON.stringify({ title: 'Invalid', status: 422, detail }), {
          status: 422,
          headers: { 'content-type': 'application/problem+json' },
        }),
      logger: { debug: log, info: log, warn: log, error: log },
      logLevel: 'debug',
    });
    const events: BaasEvent[] = [];
    client.on('error', (event) => events.push(event));
    const error = (await client
      .updateNaturalPerson({ account: '123456', documentNumber: '529.982.247-25', body: { socialName: 'Maria' } })
      .catch((e: unknown) => e)) as Error;
    const once = escapeControls(detail);
    expect(once).toBe(`latitude must match ${PATTERN}\\x1b[K`);
    expect(error.message).toContain(`Invalid: ${once}`);
    const line = logged.find((entry) => entry.includes('failed'))!;
    expect(line).toContain(`Invalid: ${once}`);
    const event = events[0] as Extract<BaasEvent, { type: 'error' }>;
    expect(event.message).toBe(error.message);
    const err = sink();
    terminal(sink(), err).err(`baas-pix-contract verify: ${error.message}`);
    expect(err.text()).toContain(`Invalid: ${once}`);
    for (const text of [error.message, line, event.message, err.text()]) expect(text).not.toContain('\\\\');
  });

  it("verify's table shows a problem's rule once, on the terminal too", () => {
    const report = {
      checks: [
        {
          check: 'listPixKeys',
          expected: '200',
          seen: '200',
          verdict: 'drift',
          problems: [{ part: 'body', pointer: '/data/0/createdAt', rule: `must match pattern "${PATTERN}"` }],
        },
      ],
      counts: { drift: 1 },
      budgets: { requests: { used: 1, limit: 10, retriesAfterWait: 0 }, timeMs: { used: 10, limit: 1000 } },
      drifted: true,
    };
    const out = sink();
    terminal(out, sink()).out(formatTable(report as never, Secrets.none));
    expect(out.text()).toContain(`listPixKeys: body/data/0/createdAt must match pattern "${PATTERN}"\n`);
    expect(out.text()).not.toContain('\\\\');
  });
});
