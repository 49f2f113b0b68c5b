// Every option of every public options type, refused alike when it is wrong: a BaasOptionError (a
// TypeError or RangeError) whose `option` is the option's path and whose `rule` says what it must be.
// The options are not listed here: they are read from the API reports (api/*.api.md, what
// `npm run api:report` records of the published declarations), so an option added to a public options
// type is tried here without anyone writing its name, and fails until its rule refuses a wrong value.
// Only how to reach each options type (which factory, which argument) is written here, and a type
// named *Options that the reports gain without a way here fails the first test.
// Every call goes through the public entries (the package root, ./sandbox, ./testing), with an injected fetch.
import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  clientCredentials,
  createBaasClient,
  exportKeys,
  isBaasOptionError,
  updateMany,
  type BaasOptionError,
} from '../../src/index.js';
import { createMswHandlers, createSandbox } from '../../src/sandbox/index.js';
import { preferHeader, startMock } from '../../src/testing/index.js';

const REPORTS = ['baas-pix-contract', 'baas-pix-contract-sandbox', 'baas-pix-contract-testing'].map((name) =>
  readFileSync(new URL(`../../api/${name}.api.md`, import.meta.url), 'utf8'),
);
const REPORT = REPORTS.join('\n');

interface Member {
  name: string;
  type: string;
}

/** The text between the `{` at `open` and its matching `}`. */
function block(text: string, open: number): string {
  let depth = 0;
  for (let at = open; at < text.length; at++) {
    if (text[at] === '{') depth++;
    else if (text[at] === '}' && --depth === 0) return text.slice(open + 1, at);
  }
  throw new Error('unbalanced braces in the API report');
}

/** The members of an interface body, split at the `;` that are not nested in a member's type. */
function membersOf(body: string): Member[] {
  const members: Member[] = [];
  let depth = 0;
  let current = '';
  for (const char of body.replace(/^\s*\/\/.*$/gm, '')) {
    if ('{(<['.includes(char)) depth++;
    if ('})>]'.includes(char) && !(char === '>' && current.endsWith('='))) depth--;
    if (char === ';' && depth === 0) {
      const member = /^\s*(?:readonly\s+)?(\w+)\??:\s*([\s\S]+)$/.exec(current);
      if (member) members.push({ name: member[1]!, type: member[2]!.trim() });
      current = '';
    } else current += char;
  }
  return members;
}

/** Every member of the options type `name` of the reports: its own, its parents' (extends) and, for a union alias, each shape's. */
function optionsOf(name: string): Member[] {
  const declared = new RegExp(`export interface ${name}(?:<[^>]*>)?(?: extends ([\\w, ]+))? \\{`).exec(REPORT);
  if (declared) {
    const parents = (declared[1] ?? '')
      .split(',')
      .map((parent) => parent.trim())
      .filter(Boolean);
    const own = membersOf(block(REPORT, declared.index + declared[0].length - 1));
    const inherited = parents.flatMap(optionsOf).filter(({ name: n }) => !own.some((member) => member.name === n));
    return [...inherited, ...own];
  }
  const alias = new RegExp(`export type ${name} = ([\\w| ]+);`).exec(REPORT);
  if (!alias) throw new Error(`no options type ${name} in the API reports`);
  const byName = new Map(
    alias[1]!
      .split('|')
      .flatMap((shape) => optionsOf(shape.trim()))
      .map((m) => [m.name, m]),
  );
  return [...byName.values()];
}

/** A type alias of the reports written out once (`TokenSource` → `string | TokenFunction`), to see which kinds it takes. */
function spelt(type: string): string {
  return type.replace(
    /\b[A-Z]\w*\b/g,
    (name) => new RegExp(`export type ${name} = ([^;{]+);`).exec(REPORT)?.[1] ?? name,
  );
}

/**
 * Values of a kind the option's declared type does not take: the first of a number, a text and a
 * boolean that its type leaves out, and always a symbol (which no option takes, and which a rule must
 * say without turning it into text).
 */
function wrongValues(type: string): unknown[] {
  const takes = spelt(type);
  const kinds: [unknown, RegExp][] = [
    [42, /\bnumber\b/],
    ['not-an-option-value', /\bstring\b/],
    [true, /\bboolean\b|\btrue\b/],
  ];
  const typed = kinds.find(([, kind]) => !kind.test(takes));
  return [...(typed ? [typed[0]] : []), Symbol('wrong')];
}

const sendNothing = async () => new Response('{"cursor":{"next":null},"data":[]}', { status: 200 });
const BASE = { baseUrl: 'https://sandbox.baas.example', token: 'sbx_test_token', fetch: sendNothing };
const client = () => createBaasClient(BASE);
const sandbox = createSandbox({ seed: 'options-mistakes' });

/** How each public options type is given, and the path its members are named by. */
const GIVEN: Readonly<Record<string, { path?: string; give: (options: object) => unknown }>> = {
  BaasClientOptions: { give: (options) => createBaasClient({ ...BASE, ...options }) },
  RetryOptions: { path: 'retry', give: (retry) => createBaasClient({ ...BASE, retry }) },
  TlsOptions: {
    path: 'tls',
    give: (tls) => createBaasClient({ baseUrl: BASE.baseUrl, token: BASE.token, tls: tls as never }),
  },
  CallOptions: { give: (options) => client().listPixKeys(options) },
  PageOptions: { give: (options) => client().pixKeys(options) },
  PixKeysOptions: { give: (options) => client().pixKeys(options) },
  ClientCredentialsOptions: {
    give: (options) =>
      clientCredentials({ tokenUrl: 'https://auth.example/token', clientId: 'id', clientSecret: 'secret', ...options }),
  },
  PacingOptions: { give: (options) => exportKeys(client(), options) },
  ExportKeysOptions: { give: (options) => exportKeys(client(), options) },
  UpdateManyOptions: { give: (options) => updateMany(client(), [], options) },
  SandboxOptions: { give: (options) => createSandbox(options) },
  RateLimitOptions: {
    path: 'rateLimit',
    give: (rateLimit) => createSandbox({ rateLimit: { requests: 1, ...rateLimit } }),
  },
  ListenOptions: { give: (options) => sandbox.listen(options) },
  MswHandlerOptions: { give: (options) => createMswHandlers(sandbox, { baseUrl: BASE.baseUrl, ...options }) },
  StartMockOptions: { give: (options) => startMock(options) },
  // Not named *Options, but options all the same: what preferHeader takes.
  MockPreference: { give: (options) => preferHeader(options) },
};

/** Every options type the reports declare: each interface or alias named *Options, and the ones GIVEN adds. */
const OPTIONS_TYPES = [
  ...new Set([...REPORT.matchAll(/export (?:interface|type) (\w+Options)\b/g)].map((match) => match[1]!)),
];

/** The error `run` throws or rejects with, or `accepted` when it takes the options. */
async function outcome(run: () => unknown): Promise<unknown> {
  try {
    const result = run();
    if (result instanceof Promise) await result;
    // A walk refuses its options when asked for them, not later, on its first page.
    return 'accepted';
  } catch (error) {
    return error;
  }
}

function expectRefusal(error: unknown, option: string): BaasOptionError {
  expect(isBaasOptionError(error), `a BaasOptionError for ${option}, got ${inspect(error)}`).toBe(true);
  const refused = error as BaasOptionError;
  expect(refused.option).toBe(option);
  expect(refused.rule).toMatch(/\w/);
  expect(refused.message).toContain(refused.rule);
  return refused;
}

describe('every options mistake', () => {
  it('knows how to give each options type the API reports declare, and each type it knows is still declared', () => {
    expect(OPTIONS_TYPES.length).toBeGreaterThanOrEqual(15);
    expect(OPTIONS_TYPES.filter((name) => !(name in GIVEN))).toEqual([]);
    for (const name of Object.keys(GIVEN)) expect(optionsOf(name).length, name).toBeGreaterThan(0);
  });

  const cases = Object.keys(GIVEN).flatMap((type) =>
    optionsOf(type).map((member) => ({ type, name: member.name, declared: member.type, path: GIVEN[type]!.path })),
  );

  it.each(cases)(
    '$type: $name, a value of the wrong kind is refused, naming it',
    async ({ type, name, declared, path }) => {
      const option = path ? `${path}.${name}` : name;
      for (const value of wrongValues(declared)) {
        const error = await outcome(() => GIVEN[type]!.give({ [name]: value }));
        expectRefusal(error, option);
      }
    },
  );

  it.each(cases)(
    '$type: $name, the same name in capitals is refused, with the name meant',
    async ({ type, name, path }) => {
      const given = name.toUpperCase();
      const error = await outcome(() => GIVEN[type]!.give({ [given]: 1 }));
      const refused = expectRefusal(error, path ? `${path}.${given}` : given);
      expect(refused.rule).toContain(`did you mean ${name}?`);
    },
  );

  it('refuses values out of range, naming the option', async () => {
    for (const [run, option] of [
      [() => createBaasClient({ ...BASE, timeoutMs: 2 ** 31 }), 'timeoutMs'],
      [() => client().pixKeys({ maxPages: 0 }), 'maxPages'],
      [() => createSandbox({ rateLimit: { requests: 0 } }), 'rateLimit.requests'],
      [() => createSandbox({ faults: [{ operation: '*', share: 2 }] }), 'faults[0].share'],
      [() => createSandbox({ clients: 1000, accountsPerClient: 1000 }), 'clients'],
      [() => sandbox.listen({ host: '0.0.0.0' as never }), 'host'],
      [() => preferHeader({ code: 99 }), 'code'],
      [() => startMock({ port: 70_000 }), 'port'],
    ] as const) {
      const error = await outcome(run);
      expectRefusal(error, option);
    }
  });
});

describe('a token that is not one', () => {
  const SECRET = 'sbx_live_9f8e7d6c5b4a';
  it.each([
    [undefined, /^is required: .*e\.g\. token: process\.env\.BAAS_TOKEN/],
    ['', /^is required/],
    [42, /^must be a string or a function returning one, not a number, e\.g\. /],
    [null, /not a null/],
    ['  ', /^must not be blank/],
    [`Bearer ${SECRET}`, /^starts with "Bearer ".*, e\.g\. token: "sbx_abc123"$/],
    [`Authorization: Bearer ${SECRET}`, /^starts with "Bearer "/],
    [`${SECRET}\r\n`, /^ends with a line break.*, e\.g\. token: "sbx_abc123"$/],
    [`${SECRET.slice(0, 8)}\t${SECRET.slice(8)}`, /^holds a control character/],
    [`${SECRET}\u0000`, /^holds a control character/],
  ])('createBaasClient({ token: %j }) is an options mistake that never shows the token', (token, rule) => {
    let error: unknown;
    try {
      createBaasClient({ ...BASE, token: token as never });
    } catch (caught) {
      error = caught;
    }
    const refused = expectRefusal(error, 'token');
    expect(refused).toBeInstanceOf(TypeError);
    expect(refused.where).toBe('createBaasClient');
    expect(refused.rule).toMatch(rule);
    expect(refused.message).toBe(`createBaasClient: token ${refused.rule}`);
    // Not a BaasAuthError: that one is a token source failing at call time.
    expect(refused.name).toBe('TypeError');
    for (const shown of [refused.message, String(refused), JSON.stringify(refused), inspect(refused), refused.stack])
      expect(shown).not.toContain(SECRET.slice(4));
  });

  it('takes a token function, which is asked at call time (its failures are BaasAuthErrors then)', () => {
    expect(() => createBaasClient({ ...BASE, token: () => SECRET })).not.toThrow();
  });
});
