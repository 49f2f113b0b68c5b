// A known secret holding an astral character (outside the BMP: an emoji, 𝟓, 𝐀, CJK extension B,
// any plane's), echoed in a JSON string with its characters escaped, is masked by value: JSON writes
// such a character as its surrogate pair (`😀` as `\ud83d\ude00`, hex in either case), and the
// masking reads the pair as the one character. The matrix property's counterexample
// (test/properties/masking-rule.property.ts, seed 34034: ["k😀  0A9", "JSON, every character
// escaped", "as it is"]) is pinned first, end to end; then the class around it, rule by rule. Each
// echo is checked to be the secret itself (JSON.parse gives it back), so the test tests the masking
// and not an encoder that drops a surrogate.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { clientCredentials } from '../../src/auth/client-credentials.js';
import { createBaasClient } from '../../src/index.js';
import { MASK, redactCredentials, redactText, Secrets } from '../../src/redact.js';

const form = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
const hex = (unit: string, upper: boolean) => {
  const digits = unit.charCodeAt(0).toString(16).padStart(4, '0');
  return `\\u${upper ? digits.toUpperCase() : digits}`;
};
/** Every UTF-16 unit escaped, as JSON may write a string: an astral character as its surrogate pair. */
const everyUnit = (text: string, upper = false) =>
  text
    .split('')
    .map((unit) => hex(unit, upper))
    .join('');
/** Only what is not ASCII escaped (PHP's json_encode), unit by unit. */
const nonAscii = (text: string, upper = false) => text.replace(/[^\u0000-\u007f]/g, (unit) => hex(unit, upper));
/** The high surrogate's hex in upper case, the low one's in lower case (and ASCII escaped lower case). */
const mixedCase = (text: string) =>
  text
    .split('')
    .map((unit) => hex(unit, unit.charCodeAt(0) >= 0xd800 && unit.charCodeAt(0) <= 0xdbff))
    .join('');

/** The echo is the secret, as a JSON reader reads it: no surrogate dropped. */
const decodesTo = (echo: string, secret: string) => expect(JSON.parse(`"${echo}"`)).toBe(secret);

/** What one token endpoint's refusal shows, as the property builds it: the echo in the description, the secret in error_uri. */
async function surfacesOfRefusal(secret: string, echo: string) {
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
          error_uri: `https://idp.test/errors?secret=${secret}&basic=${basic}`,
        },
        { status: 401 },
      ),
  });
  const events: string[] = [];
  source.observe((event) => events.push(JSON.stringify(event)));
  const tokenError = (await source().catch((e: unknown) => e)) as Error & { toJSON(): unknown };
  const client = createBaasClient({
    baseUrl: 'https://provider.test',
    token: source,
    retry: false,
    fetch: async () => Response.json({}),
  });
  const clientError = (await client.listPixKeys({ limit: 5 }).catch((e: unknown) => e)) as Error & {
    toJSON(): unknown;
  };
  const surfaces: Record<string, string> = { events: events.join('\n') };
  for (const [name, error] of [
    ['BaasTokenError', tokenError],
    ['client error', clientError],
  ] as const)
    Object.assign(surfaces, {
      [`${name} message`]: error.message,
      [`${name} String`]: String(error),
      [`${name} JSON`]: JSON.stringify(error.toJSON()),
      [`${name} util.inspect`]: inspect(error, { depth: null, showHidden: true }),
    });
  const shown = [secret, echo, basic, form(secret), encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)];
  const leaks = Object.entries(surfaces)
    .filter(([, text]) => shown.some((written) => text.includes(written)))
    .map(([surface]) => surface);
  return { tokenError, clientError, leaks };
}

describe("the property's counterexample: ['k😀  0A9', 'JSON, every character escaped', 'as it is']", () => {
  const secret = 'k😀  0A9';
  const echo = '\\u006b\\ud83d\\ude00\\u0020\\u0020\\u0030\\u0041\\u0039';

  it('the echo is the secret, every UTF-16 unit escaped (the emoji as its surrogate pair)', () => {
    expect(everyUnit(secret)).toBe(echo);
    decodesTo(echo, secret);
  });

  it("reaches neither the BaasTokenError's nor the client error's message, String, JSON, util.inspect, nor the events", async () => {
    const { tokenError, clientError, leaks } = await surfacesOfRefusal(secret, echo);
    expect(leaks).toEqual([]);
    // Masked where it stands, whole, the text around it kept.
    expect(tokenError.message).toContain(`secret ${MASK} refused`);
    expect(clientError.message).toContain(`secret ${MASK} refused`);
  });
});

// Astral characters of every kind the masking reads: a plain symbol (emoji), a digit (𝟓, read as 5),
// a letter whose NFKC form is ASCII (𝐀, read as A), a CJK ideograph, a private-use and a noncharacter
// code point, the first and last of plane 1 and of the last plane, and each plane's first.
const ASTRAL: readonly string[] = [
  '😀',
  '𝟓',
  '𝐀',
  '𠀀',
  '\u{F0000}',
  '\u{1FFFF}',
  '\u{10000}',
  '\u{10FFFF}',
  ...Array.from({ length: 16 }, (_, plane) => String.fromCodePoint((plane + 1) * 0x10000 + 0x1234)),
];
// Where the astral character stands in the secret, and two of them (a flag is two regional indicators).
const shapes = (char: string): string[] => [
  `k${char}  0A9`,
  `${char}secret-value`,
  `secret-value${char}`,
  `ab${char}${char}cd`,
  'k🇧🇷 0A9',
];
const ESCAPINGS: readonly [string, (text: string) => string][] = [
  ['every unit, lower-case hex', (text) => everyUnit(text)],
  ['every unit, upper-case hex', (text) => everyUnit(text, true)],
  ['every unit, high surrogate upper-case, low lower-case', mixedCase],
  ['what is not ASCII, lower-case hex', (text) => nonAscii(text)],
  ['what is not ASCII, upper-case hex', (text) => nonAscii(text, true)],
];

describe('a secret holding any astral character, echoed with it escaped as its surrogate pair, is masked by value', () => {
  for (const char of ASTRAL) {
    const point = `U+${char.codePointAt(0)!.toString(16).toUpperCase()}`;
    it(`${point}: redactText, redactCredentials and every method of Secrets mask it whole, in every escaping`, () => {
      for (const secret of shapes(char))
        for (const [name, escaped] of ESCAPINGS) {
          const echo = escaped(secret);
          decodesTo(echo, secret);
          const text = `secret ${echo} refused`;
          const masked = `secret ${MASK} refused`;
          const secrets = Secrets.of([secret]);
          expect([name, secret, redactText(text, [secret])]).toEqual([name, secret, masked]);
          expect([name, secret, redactCredentials(text, [secret])]).toEqual([name, secret, masked]);
          expect([name, secret, secrets.message(text), secrets.line(text), secrets.quote(text)]).toEqual([
            name,
            secret,
            masked,
            masked,
            masked,
          ]);
          expect(secrets.json({ [echo]: text })).toEqual({ [MASK]: masked });
          // Inside a percent-encoded value too (`%5Cud83d%5Cude00`): the escape is read after each round.
          expect([name, secret, redactText(`secret=${encodeURIComponent(echo)}&x=1`, [secret])]).toEqual([
            name,
            secret,
            `secret=${MASK}&x=1`,
          ]);
        }
    });
  }

  it('end to end: a token endpoint echoing the client secret so escaped shows it on no surface', async () => {
    for (const char of ['😀', '𝟓', '𝐀', '\u{10FFFF}'])
      for (const [name, escaped] of ESCAPINGS) {
        const secret = `k${char}  0A9`;
        const { tokenError, leaks } = await surfacesOfRefusal(secret, escaped(secret));
        expect([name, secret, leaks]).toEqual([name, secret, []]);
        expect(tokenError.message).toContain(`secret ${MASK} refused`);
      }
  });
});
