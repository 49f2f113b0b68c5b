// Issue 34's two properties of the masking rule, over generated text rather than a list of spellings:
// 1. a CPF written with any script's digits (any character whose Unicode numeric value is one digit,
//    a keycap too) and any mix of characters that are neither letters nor numbers between its digits
//    (up to the bound SECURITY.md states), as written or percent- or JSON-encoded, reaches no surface: redactText and
//    friends, an error's message, String, stack, toJSON, util.inspect with showHidden, the logger,
//    the events, `.withResponse()`'s header fields and the spans;
// 2. a client secret and a token with spaces, `+`, `/`, `&` and non-ASCII characters, echoed by the
//    token endpoint or the API in every encoding the package produces or decodes (percent, form, JSON
//    string escapes `\/` and `\uXXXX`, the Basic value and its decoded form), reach no surface either.
// What a digit and a gap are is read here from the Unicode Character Database (test/redaction/ucd.ts,
// its committed extract scripts/data/ucd-numeric.json) and the runtime's properties, independently of
// src/redact.ts; so is what the surfaces show. The digits are every character the data gives a
// Numeric_Value of one decimal digit, of every script (5, ５, ٥, ৫, 𝟓, ①, ⑴, ❶, ², Ⅴ, ፩, Kaktovik 𝋅, 五).
import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { fc, test } from '@fast-check/vitest';
import { afterAll, describe, expect } from 'vitest';
import { clientCredentials } from '../../src/auth/client-credentials.js';
import { BaasApiError, createBaasClient, type BaasEventType } from '../../src/index.js';
import { redactJson, redactMessage, redactPath, redactText, redactUrl } from '../../src/redact.js';
import { categoryOf, DIGITS_BY_VALUE, UCD_DIGITS } from '../redaction/ucd.js';
import { cpf } from '../support/arbitraries.js';
import { serialized, startOtel, stopOtel } from '../tracing/otel-setup.js';
import { type Depth, runsAt } from './depth.js';

const SEED = 34_034;
// The bound on a gap as SECURITY.md states it, not the code's constant: a rule weakened in
// src/redact.ts (MAX_GAP lowered) must fail here, not shrink the property with it.
const MAX_GAP = Number(
  /up to (\d+) characters that are neither a letter nor a number/.exec(
    readFileSync(new URL('../../SECURITY.md', import.meta.url), 'utf8').replace(/\*\*/g, ''),
  )?.[1],
);
if (!(MAX_GAP >= 1)) throw new Error('SECURITY.md no longer states the bound on a gap between two digits');
const EVENT_TYPES: BaasEventType[] = ['request', 'response', 'retry', 'error', 'token', 'drift'];

// ---------------------------------------------------------------------------------------------
// Unicode's classes, from its data

const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;
/** Characters that are neither letters nor numbers, of every general category that has them. */
const GAP_CHARACTERS: string[] = [];
for (let code = 0; code < 0x30000; code += 1) {
  if (code >= 0xd800 && code <= 0xdfff) continue;
  const char = String.fromCodePoint(code);
  // A gap character must read as one by the runtime and by the data alike, and keep being one in
  // NFKC (Ⓐ is a symbol whose NFKC form is a letter: it is a gap, and is generated as one).
  if (!LETTER_OR_NUMBER.test(char) && !/^[LN]/.test(categoryOf(code)) && categoryOf(code) !== 'Cn')
    GAP_CHARACTERS.push(char);
}

/** A digit as the data says: its value, or undefined. */
const digitValue = (char: string): number | undefined => UCD_DIGITS.get(char.codePointAt(0)!);

/** A surface read as a person reads it: percent-encoding and JSON escapes undone, then each digit's value; a letter breaks a run. */
function digitsShown(text: string): string {
  let plain = text.replace(/\\u([0-9A-Fa-f]{4})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  for (let round = 0; round < 3; round += 1)
    plain = plain.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  let out = '';
  for (const char of plain) {
    const value = digitValue(char);
    if (value !== undefined) out += String(value);
    else if (LETTER_OR_NUMBER.test(char)) out += '|';
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// A CPF in any spelling

interface Spelled {
  digits: string;
  text: string;
}

const digitArb = (digit: number) =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...DIGITS_BY_VALUE[digit]!), weight: 4 },
    // A keycap: the ASCII digit, U+FE0F, U+20E3.
    { arbitrary: fc.constant(`${digit}\ufe0f\u20e3`), weight: 1 },
  );
const gapArb = (room: number) =>
  fc.array(fc.constantFrom(...GAP_CHARACTERS), { maxLength: room }).map((c) => c.join(''));
const encodingArb = fc.constantFrom('as written', 'percent', 'json \\u', 'json string');

const spelledArb: fc.Arbitrary<Spelled> = cpf.chain((digits) =>
  fc
    .tuple(
      fc.tuple(...[...digits].map((digit) => digitArb(Number(digit)))),
      // A keycap's two marks count in the gap after its digit.
      fc.tuple(...Array.from({ length: 10 }, () => gapArb(MAX_GAP - 2))),
      encodingArb,
    )
    .map(([shown, gaps, encoding]) => {
      const plain = shown.map((digit, index) => digit + (gaps[index] ?? '')).join('');
      const text =
        encoding === 'percent'
          ? encodeURIComponent(plain)
          : encoding === 'json \\u'
            ? [...plain]
                .map((c) => (c.length === 1 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c))
                .join('')
            : encoding === 'json string'
              ? JSON.stringify(plain).slice(1, -1).replace(/\//g, '\\/')
              : plain;
      return { digits, text };
    }),
);

/** The surfaces' findings: where the first nine digits show. */
function cpfLeaks(surfaces: Record<string, string>, digits: string): string[] {
  return Object.entries(surfaces)
    .filter(([, text]) => digitsShown(text).includes(digits.slice(0, 9)))
    .map(([surface]) => surface);
}

/** The properties, at `depth` (./depth.ts): masking-rule.test.ts quick, masking-rule.matrix.test.ts full. */
export function maskingRule(depth: Depth): void {
  const { exporter } = startOtel();
  afterAll(stopOtel);

  describe('a CPF in any digits, anything but letters and numbers between them', () => {
    test.prop([spelledArb], { numRuns: runsAt(depth, 120), seed: SEED })(
      'is masked by every function of the rule',
      ({ digits, text }) => {
        const said = `customer ${text} refused`;
        const surfaces = {
          redactText: redactText(said),
          redactMessage: redactMessage(said),
          'redactJson value': JSON.stringify(redactJson({ detail: said })),
          'redactJson name': JSON.stringify(redactJson({ errors: { [text]: 'taken' } })),
          redactUrl: redactUrl(`https://p.test/v2/c/${encodeURIComponent(text)}?q=${encodeURIComponent(said)}`),
          redactPath: redactPath(`/v2/c/${encodeURIComponent(text)}/keys`),
        };
        expect(cpfLeaks(surfaces, digits)).toEqual([]);
        // Masked, not dropped: the check digits stay.
        expect(digitsShown(surfaces.redactText).replace(/\|/g, '')).toBe(digits.slice(9));
      },
    );

    test.prop([spelledArb, fc.boolean()], { numRuns: runsAt(depth, 60), seed: SEED })(
      'reaches no surface of the client',
      async ({ digits, text }, succeed) => {
        exporter.reset();
        const logged: string[] = [];
        const record = (...args: unknown[]) =>
          logged.push(
            args.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: null, showHidden: true }))).join(' '),
          );
        // Header values are bytes: there the spelling goes percent-encoded, as a provider must write it.
        const inHeader = encodeURIComponent(text);
        const client = createBaasClient({
          baseUrl: 'https://provider.test',
          token: 'sbx_masking-rule-token-0123456789',
          retry: false,
          logLevel: 'debug',
          logger: { debug: record, info: record, warn: record, error: record },
          fetch: async () =>
            succeed
              ? Response.json(
                  { data: [], cursor: { next: null } },
                  { headers: { 'x-request-id': inHeader, 'x-echo': `customer ${inHeader}` } },
                )
              : Response.json(
                  { type: 'about:blank', title: `customer ${text} refused`, status: 422, errors: { [text]: text } },
                  { status: 422, headers: { 'content-type': 'application/problem+json', 'x-request-id': inHeader } },
                ),
        });
        const events: string[] = [];
        for (const type of EVENT_TYPES)
          client.on(type, (event) =>
            events.push(`${inspect(event, { depth: null, showHidden: true })} ${JSON.stringify(event)}`),
          );
        const surfaces: Record<string, string> = {};
        if (succeed) {
          const answer = await client.listPixKeys({ limit: 5 }).withResponse();
          surfaces.withResponse = `${JSON.stringify(answer)} ${inspect(answer, { depth: null, showHidden: true })}`;
        } else {
          const error = await client.listPixKeys({ limit: 5 }).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(BaasApiError);
          const api = error as BaasApiError;
          Object.assign(surfaces, {
            message: api.message,
            String: String(api),
            stack: api.stack ?? '',
            toJSON: JSON.stringify(api.toJSON()),
            'util.inspect': inspect(api, { depth: null, showHidden: true }),
          });
        }
        Object.assign(surfaces, {
          logger: logged.join('\n'),
          events: events.join('\n'),
          spans: serialized(exporter.getFinishedSpans()),
        });
        expect(cpfLeaks(surfaces, digits)).toEqual([]);
        expect(logged.length).toBeGreaterThan(0);
      },
    );
  });

  // ---------------------------------------------------------------------------------------------
  // Secrets echoed in every encoding

  const secretArb = fc
    .array(
      fc.oneof(
        fc.constantFrom(' ', '+', '/', '&', '=', '%', '"', '\\', 'é', 'ç', '£', '€', '😀', '~'),
        fc.stringMatching(/^[A-Za-z0-9]{1,4}$/),
      ),
      { minLength: 3, maxLength: 10 },
    )
    .map((parts) => `k${parts.join('')}9`)
    .filter((secret) => secret.length >= 8);

  const form = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  // Every UTF-16 unit as `\uXXXX`, as JSON writes it: an astral character (😀) as its surrogate pair,
  // `\ud83d\ude00`. (Split by unit, not by code point: `[...'😀']` is one element, whose
  // charCodeAt(0) is the high surrogate alone, an echo of another text than the secret.)
  const escapeAll = (value: string) =>
    value
      .split('')
      .map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join('');

  /** Every encoding of a secret the package produces or decodes, each as a provider may echo it. */
  const ENCODINGS: Record<string, (secret: string) => string> = {
    'as it is': (s) => s,
    percent: (s) => encodeURIComponent(s),
    'percent, lower case': (s) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    form,
    'form, as sent in a Basic value': (s) => `acme-payments:${form(s)}`,
    'JSON string': (s) => JSON.stringify(s).slice(1, -1),
    'JSON, PHP style (\\/ and \\uXXXX)': (s) =>
      JSON.stringify(s)
        .slice(1, -1)
        .replace(/\//g, '\\/')
        .replace(/[^\u0000-\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    'JSON, every character escaped': escapeAll,
  };
  const encodingNameArb = fc.constantFrom(...Object.keys(ENCODINGS));

  /** Where a surface shows the secret: as it is or in any of the encodings. */
  function secretLeaks(surfaces: Record<string, string>, secret: string, basic: string): string[] {
    const shown = [...Object.values(ENCODINGS).map((encode) => encode(secret)), basic];
    return Object.entries(surfaces)
      .filter(([, text]) => shown.some((written) => text.includes(written.replace(/^acme-payments:/, ''))))
      .map(([surface]) => surface);
  }

  const errorSurfaces = (name: string, error: unknown): Record<string, string> => {
    const e = error as Error & { toJSON?: () => unknown };
    return {
      [`${name} message`]: e.message,
      [`${name} String`]: String(e),
      [`${name} JSON`]: JSON.stringify(e.toJSON?.() ?? e),
      [`${name} util.inspect`]: inspect(e, { depth: null, showHidden: true }),
    };
  };

  /** How a reader undoes each encoding (JSON.parse, decodeURIComponent, URLSearchParams), independently of it. */
  const DECODINGS: Record<string, (echo: string) => string> = {
    'as it is': (e) => e,
    percent: decodeURIComponent,
    'percent, lower case': decodeURIComponent,
    form: (e) => new URLSearchParams(`v=${e}`).get('v')!,
    'form, as sent in a Basic value': (e) => new URLSearchParams(`v=${e.replace(/^acme-payments:/, '')}`).get('v')!,
    'JSON string': (e) => JSON.parse(`"${e}"`) as string,
    'JSON, PHP style (\\/ and \\uXXXX)': (e) => JSON.parse(`"${e}"`) as string,
    'JSON, every character escaped': (e) => JSON.parse(`"${e}"`) as string,
  };

  describe('secrets with spaces, +, /, & and non-ASCII characters, echoed in every encoding', () => {
    test.prop([secretArb], { numRuns: runsAt(depth, 120), seed: SEED })(
      'each encoding echoes the secret itself: a reader decodes it back (the properties below test the masking on what a provider can send)',
      (secret) => {
        expect(Object.keys(DECODINGS)).toEqual(Object.keys(ENCODINGS));
        for (const [name, encode] of Object.entries(ENCODINGS))
          expect([name, DECODINGS[name]!(encode(secret))]).toEqual([name, secret]);
      },
    );

    test.prop([secretArb, encodingNameArb, encodingNameArb], { numRuns: runsAt(depth, 120), seed: SEED })(
      'a token endpoint echoing the client secret and the Basic value shows neither',
      async (secret, described, uriEncoding) => {
        const echo = ENCODINGS[described]!(secret);
        const basic = Buffer.from(`${form('acme-payments')}:${form(secret)}`).toString('base64');
        const source = clientCredentials({
          tokenUrl: 'https://idp.test/oauth/token',
          clientId: 'acme-payments',
          clientSecret: secret,
          fetch: async () =>
            Response.json(
              {
                error: 'invalid_client',
                error_description: `secret ${echo} refused; Authorization: Basic ${basic}; decoded acme-payments:${form(secret)}`,
                error_uri: `https://idp.test/errors?secret=${ENCODINGS[uriEncoding]!(secret)}&basic=${basic}`,
              },
              { status: 401 },
            ),
        });
        const events: string[] = [];
        source.observe((event) => events.push(JSON.stringify(event)));
        const tokenError = await source().catch((e: unknown) => e);
        const client = createBaasClient({
          baseUrl: 'https://provider.test',
          token: source,
          retry: false,
          fetch: async () => Response.json({}),
        });
        const clientError = await client.listPixKeys({ limit: 5 }).catch((e: unknown) => e);
        const surfaces = {
          ...errorSurfaces('BaasTokenError', tokenError),
          ...errorSurfaces('client error', clientError),
          events: events.join('\n'),
        };
        expect(secretLeaks(surfaces, secret, basic)).toEqual([]);
        expect(events.length).toBeGreaterThan(0);
      },
    );

    test.prop([secretArb, encodingNameArb, fc.constantFrom('bodySnippet', 'problem', 'token_type')], {
      numRuns: runsAt(depth, 120),
      seed: SEED,
    })(
      'a provider echoing a token it was sent (or the token endpoint echoing the one it issues) shows none',
      async (tail, described, where) => {
        // A token the client sends is a b64token (src/token-text.ts): + and / stay, to be echoed encoded.
        const token = `tok${tail.replace(where === 'token_type' ? /[\s"\\]/g : /[^A-Za-z0-9\-._~+/]/g, '')}`;
        const echo = ENCODINGS[described]!(token);
        const logged: string[] = [];
        const record = (...args: unknown[]) =>
          logged.push(args.map((a) => inspect(a, { depth: null, showHidden: true })).join(' '));
        if (where === 'token_type') {
          // The endpoint answers with the token it issues as its type: refused, and neither quoted.
          const source = clientCredentials({
            tokenUrl: 'https://idp.test/oauth/token',
            clientId: 'acme-payments',
            clientSecret: 'client-secret-value',
            fetch: async () => Response.json({ access_token: token, token_type: echo, expires_in: 60 }),
          });
          const error = await source().catch((e: unknown) => e);
          expect(secretLeaks(errorSurfaces('BaasTokenError', error), token, token)).toEqual([]);
          return;
        }
        const client = createBaasClient({
          baseUrl: 'https://provider.test',
          token,
          retry: false,
          logLevel: 'debug',
          logger: { debug: record, info: record, warn: record, error: record },
          fetch: async () =>
            where === 'bodySnippet'
              ? new Response(`<html>upstream said: token=${echo}</html>`, {
                  status: 502,
                  headers: { 'content-type': 'text/html' },
                })
              : Response.json(
                  { type: 'about:blank', title: 'Refused', status: 401, detail: `token ${echo}` },
                  { status: 401, headers: { 'content-type': 'application/problem+json' } },
                ),
        });
        const error = await client.listPixKeys({ limit: 5 }).catch((e: unknown) => e);
        const surfaces = { ...errorSurfaces('error', error), logger: logged.join('\n') };
        expect(secretLeaks(surfaces, token, token)).toEqual([]);
      },
    );
  });
}
