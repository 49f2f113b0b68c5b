// Tokens and CPFs never reach a span: not its name, attributes, status, events or links, whatever a
// server echoes back and in whatever spelling.
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createBaasClient } from '../../src/index.js';
import { cpf } from '../support/arbitraries.js';
import { SECRET_TOKEN, VALID_ACCOUNT } from '../support/fixtures.js';
import { serialized, startOtel, stopOtel } from './otel-setup.js';
import { type Depth, runsAt } from '../properties/depth.js';

const { exporter } = startOtel();
afterAll(stopOtel);

const problem = (status: number, detail: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ type: 'about:blank', title: 'Refused', status, detail }), {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });

/** A CPF's digits with 0 to 3 separators between any two of them (529.982.247-25, 5 2 9…, 529982247/25). */
const spelled = (digits: string) =>
  fc
    .array(fc.string({ unit: fc.constantFrom('.', '-', ' ', '/', '_'), maxLength: 3 }), {
      minLength: 10,
      maxLength: 10,
    })
    .map((gaps) => [...digits].map((digit, i) => digit + (gaps[i] ?? '')).join(''));

/**
 * One update whose first attempt fails with a system code naming the token and `echo` (the CPF in
 * some spelling), whose server then asks for a retry and refuses, echoing both.
 */
async function tracedCall(token: string, documentNumber: string, echo: string): Promise<ReadableSpan[]> {
  exporter.reset();
  let calls = 0;
  const baas = createBaasClient({
    baseUrl: 'https://baas.test',
    token,
    retry: { baseDelayMs: 0, maxDelayMs: 0 },
    fetch: async () => {
      calls += 1;
      if (calls === 1) throw new TypeError('fetch failed', { cause: { code: `E_${token}_${echo}` } });
      if (calls === 2) return problem(503, `busy for ${echo}, token ${token}`, { 'retry-after': '0' });
      return problem(422, `CPF ${echo} refused for Bearer ${token}; also ${documentNumber}`);
    },
  });
  await baas
    .updateNaturalPerson({ account: VALID_ACCOUNT, documentNumber, body: { phoneNumber: '+5511987654321' } })
    .catch(() => undefined);
  return exporter.getFinishedSpans();
}

/** The property, at `depth` (../properties/depth.ts): secrets.test.ts quick, secrets.matrix.test.ts full. */
export function spanSecrets(depth: Depth): void {
  describe('what spans show', () => {
    it('never a token or the CPF a call carried, in any spelling a server echoes', async () => {
      await fc.assert(
        fc.asyncProperty(
          cpf.chain((number) => fc.tuple(fc.constant(number), spelled(number))),
          fc.stringMatching(/^[A-Za-z0-9_-]{20,40}$/),
          async ([number, spelling], token) => {
            const spans = await tracedCall(token, number, spelling);
            expect(spans).toHaveLength(1);
            const text = serialized(spans);
            expect(text).not.toContain(token);
            expect(text).not.toContain(number);
            expect(text).not.toContain(spelling);
          },
        ),
        { seed: 23, numRuns: runsAt(depth, 200) },
      );
    });

    it('the error and its status are shown, masked', async () => {
      const spans = await tracedCall(SECRET_TOKEN, '52998224725', '529.982.247-25');
      const text = serialized(spans);
      expect(spans[0]!.attributes['error.type']).toBe('422');
      expect(spans[0]!.attributes['http.request.resend_count']).toBe(2);
      expect(text).toContain('***.***.***-25');
      // The failure's system code is shown with the token masked.
      expect(spans[0]!.events.map((event) => event.attributes?.['baas.retry.reason'])).toContain(
        'network E_[REDACTED]_***.***.***-25',
      );
      expect(text).not.toContain(SECRET_TOKEN);
    });
  });
}
