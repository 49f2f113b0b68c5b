// The rules src/redact.ts added for issue 26, each on its own: digits of any script, percent-encoding,
// the `/` and `_` separators, JSON pointer escapes, control characters, bounded provider text, and a
// walk that no nesting overflows. (The forms already pinned are in redact.test.ts.)
import { describe, expect, it } from 'vitest';
import {
  escapeControls,
  escapeJsonControls,
  MAX_PROVIDER_TEXT,
  normalizeDigits,
  percentDecode,
  redactBounded,
  redactJson,
  redactPath,
  redactText,
  redactUrl,
} from '../../src/redact.js';

const CPF = '52998224725';
const TOKEN = 'sbx_rules-token-0123456789';

describe('digits of any script count', () => {
  it.each([
    ['full-width', '５２９９８２２４７２５'],
    ['Arabic-Indic', '٥٢٩٩٨٢٢٤٧٢٥'],
    ['extended Arabic-Indic', '۵۲۹۹۸۲۲۴۷۲۵'],
    ['Devanagari', '५२९९८२२४७२५'],
    ['mathematical bold', '𝟓𝟐𝟗𝟗𝟖𝟐𝟐𝟒𝟕𝟐𝟓'],
    ['full-width, with full-width dots and dash', '５２９．９８２．２４７－２５'],
    ['mixed scripts', '５2٩98224７25'],
  ])('a CPF in %s digits is masked to its last two', (_how, written) => {
    const shown = redactText(`customer ${written} refused`);
    expect(shown).toMatch(/^customer [*.-]+25 refused$/);
  });

  it('reads each digit as its ASCII digit, and leaves other text as it was', () => {
    expect(normalizeDigits('٠١٢٣٤٥٦٧٨٩ ０９ 𝟎𝟗 ²')).toBe('0123456789 09 09 2');
    expect(normalizeDigits('Razão social… ✓')).toBe('Razão social… ✓');
    expect(normalizeDigits('plain ASCII 123')).toBe('plain ASCII 123');
  });

  it('a DocumentNumber a call carried is masked in other digits too, in any spelling', () => {
    expect(redactText('x ５ ２ ９ ９ ８ ２ ２ ４ ７ ２ ５ y', [CPF])).toBe('x * * * * * * * * * 2 5 y');
  });
});

describe('separators: any of . - / _ or a space', () => {
  it.each([
    ['111.444.777/35', '***.***.***/35'],
    ['111_444_777_35', '***_***_***_35'],
    ['111/444/777/35', '***/***/***/35'],
    ['111444777/35', '*********/35'],
    ['111.444.777_35', '***.***.***_35'],
  ])("another person's CPF written %j is masked as %j", (written, shown) => {
    expect(redactText(`cpf ${written}.`)).toBe(`cpf ${shown}.`);
  });

  it('a CNPJ, a date and a decimal fraction are not taken for one', () => {
    for (const text of ['12.345.678/0001-95', '2026/11/27', 'lat -23.5505200000', '0.123456789'])
      expect(redactText(text)).toBe(text);
  });

  it('a member named by a CPF with a slash, as a JSON pointer writes it (~1), is masked', () => {
    expect(redactText('/errors/111.444.777~135 is not allowed')).toBe('/errors/***.***.***~135 is not allowed');
    expect(redactText('/a~0b/plain')).toBe('/a~0b/plain');
  });
});

describe('percent-encoding is read before masking', () => {
  const encoded = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');

  it('decodes repeatedly, and leaves a malformed sequence as it is', () => {
    expect(percentDecode('%2535%2532')).toBe('52');
    expect(percentDecode('100%zz %E0%A4%A')).toBe('100%zz %E0%A4%A');
  });

  it('masks a CPF and a token written percent-encoded in free text', () => {
    const shown = redactText(`see /x/${encoded(CPF)}/${encoded(TOKEN)} now`, [TOKEN]);
    expect(shown).toBe('see /x/*********25/[REDACTED] now');
  });

  it('leaves encoded text that hides nothing as it was', () => {
    expect(redactText('a%20b %41')).toBe('a%20b %41');
  });

  it.each([
    ['path', `https://p.test/v2/${encoded(CPF)}/${encoded(TOKEN)}`],
    ['double-encoded path', `https://p.test/v2/${encoded(CPF).replace(/%/g, '%25')}`],
    ['query value', `https://p.test/v2?cpf=${encoded(CPF)}&t=${encoded(TOKEN)}`],
    ['query name', `https://p.test/v2?${encoded(CPF)}=1`],
    ['fragment', `https://p.test/v2#${encoded(CPF)}`],
    ['encoded full-width digits', `https://p.test/v2/${encodeURIComponent('５２９９８２２４７２５')}`],
  ])('redactUrl masks what a %s hides', (_where, url) => {
    const shown = redactUrl(url, [TOKEN]);
    expect(decodeURIComponent(decodeURIComponent(shown))).not.toMatch(/529982247|sbx_rules/);
    expect(shown).toContain('25');
  });

  it('redactUrl leaves a URL that hides nothing as it was', () => {
    const url = 'https://p.test/v2/api/pix/keys/list-keys?limit=5&cursor=a%2Fb';
    expect(redactUrl(url)).toBe(url);
  });
});

describe('paths in the logs of our servers', () => {
  it('masks every digit of a CPF written in other digits, percent-encoded', () => {
    expect(redactPath(`/c/${encodeURIComponent('５２９９８２２４７２５')}/k`)).toBe('/c/***********/k');
    expect(redactPath('/c/٥٢٩٩٨٢٢٤٧٢٥')).toBe('/c/***********');
  });
});

describe('control characters', () => {
  it('escapes C0, DEL, C1, format and separator characters, and leaves the backslash (escaping is idempotent)', () => {
    expect(escapeControls('a\nb\r\tc\u001bd\u007f\u0085\u200b\u202e\u2028\\')).toBe(
      'a\\nb\\r\\tc\\x1bd\\x7f\\x85\\u200b\\u202e\\u2028\\',
    );
  });

  it('escapes in JSON text only what JSON.stringify leaves, so the JSON still parses', () => {
    const json = escapeJsonControls(JSON.stringify({ a: 'x\n\u202e\u0085\u2028' }));
    expect(json).not.toMatch(/[\u202e\u0085\u2028]/);
    expect(JSON.parse(json)).toEqual({ a: 'x\n\u202e\u0085\u2028' });
  });
});

describe('provider text is bounded', () => {
  it(`keeps text of up to ${MAX_PROVIDER_TEXT} characters whole, and cuts longer text saying how much more there was`, () => {
    expect(redactBounded('x'.repeat(MAX_PROVIDER_TEXT))).toBe('x'.repeat(MAX_PROVIDER_TEXT));
    const cut = redactBounded('x'.repeat(5_000_000));
    expect(cut.length).toBeLessThan(MAX_PROVIDER_TEXT + 50);
    expect(cut).toMatch(/… \(4999000 more characters\)$/);
  });

  it('masks before it cuts: a CPF across the bound is not left half shown', () => {
    const text = `${'x'.repeat(MAX_PROVIDER_TEXT - 5)}${CPF}${'y'.repeat(10)}`;
    expect(redactBounded(text)).not.toContain('52998');
  });

  it('redactJson bounds every string and member name', () => {
    const long = 'z'.repeat(10_000);
    const out = redactJson({ [long]: long }) as Record<string, string>;
    const [name, value] = Object.entries(out)[0]!;
    expect(name.length).toBeLessThan(MAX_PROVIDER_TEXT + 50);
    expect(value.length).toBeLessThan(MAX_PROVIDER_TEXT + 50);
  });
});

describe('structures are walked without recursion', () => {
  it('a value nested 500,000 levels deep is copied to depth 64 without overflowing the stack', () => {
    let deep: unknown = CPF;
    for (let i = 0; i < 500_000; i += 1) deep = i % 2 ? [deep] : { inner: deep };
    const out = redactJson(deep);
    let depth = 0;
    for (let node = out as unknown; node && typeof node === 'object'; depth += 1)
      node = Array.isArray(node) ? node[0] : (node as { inner: unknown }).inner;
    expect(depth).toBe(64);
  });

  it('an event walk with its own depth drops what is too deep, and nulls when asked', () => {
    expect(
      redactJson({ a: { b: { c: 1 } }, n: null }, [], { maxDepth: 2, tooDeep: undefined, dropNull: true }),
    ).toEqual({
      a: { b: undefined },
      n: undefined,
    });
  });
});
