// Property (fast-check, fixed seed): whatever member names a hostile client puts in its request body,
// and however a server behind echoes them into a 422 (Prism's sl-violations header, the sandbox's
// violations[].property, nested, in messages), and whatever CPF spelling the path carries, the request
// log writes exactly one line per request, with no control character, no digit run of a CPF, no
// token, and names at fault that are the contract's own fields or "(unknown field)". Each run goes over
// two loopback servers, so the property runs at two depths (TESTING.md, "Quick and matrix", rule 2):
// request-log-hostile.test.ts in npm test, request-log-hostile.matrix.test.ts in the matrix.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRequestLog, type RequestLog } from '../../src/cli/request-log.js';
import { startFaultServer, type FaultServer } from '../support/fault-server.js';
import { cpf } from '../support/arbitraries.js';
import { deref, spec } from '../support/spec.js';
import { type Depth, runsAt } from '../properties/depth.js';
import { until } from './in-process.js';

// The names a line may show: the contract's body fields as pointers and its parameters, read here
// from the spec on their own, plus the whole body and the neutral mark.
const CONTRACT_NAMES = new Set<string>(['body', '(unknown field)']);
for (const item of Object.values(spec.paths)) {
  for (const operation of Object.values<any>(item)) {
    for (const parameter of operation.parameters ?? []) CONTRACT_NAMES.add(deref(parameter).name);
    const walk = (schema: any, at: string): void => {
      for (const [name, inner] of Object.entries<any>(deref(schema)?.properties ?? {})) {
        CONTRACT_NAMES.add(`${at}/${name}`);
        walk(inner, `${at}/${name}`);
      }
    };
    for (const media of Object.values<any>(deref(operation.requestBody)?.content ?? {})) walk(media.schema, '');
  }
}

const spellings = (digits: string): string[] => {
  const [a, b, c, d] = [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6, 9), digits.slice(9)];
  return [
    digits,
    `${a}.${b}.${c}-${d}`,
    `${a}${b}${c}-${d}`,
    `${a} ${b} ${c} ${d}`,
    `${a}.${b}.${c}.${d}`,
    `${a}-${b}-${c}-${d}`,
  ];
};
const cpfSpelling = fc.tuple(cpf, fc.nat(5)).map(([digits, i]) => ({ digits, written: spellings(digits)[i]! }));
const token = fc.stringMatching(/^sbx_[A-Za-z0-9_-]{16,32}$/);
const controls = fc.constantFrom(
  '\n',
  '\r\n',
  '\u001b[31m',
  '\u001b]0;title\u0007',
  '\u0000',
  '\u007f',
  '\u0085',
  '\u2028',
  '\u202e',
  '\nGET /injected 200 (1 ms)',
  '\t',
);
const known = fc.constantFrom(
  ...[...CONTRACT_NAMES].filter((name) => name.startsWith('/')).map((pointer) => pointer.slice(1).split('/').at(-1)!),
);

interface Secrets {
  cpfs: string[];
  tokens: string[];
}

/** A member name a hostile client would send, and the secrets it carries. */
const hostileName: fc.Arbitrary<{ name: string; secrets: Secrets }> = fc
  .array(
    fc.oneof(
      cpfSpelling.map(({ digits, written }) => ({ text: written, cpfs: [digits], tokens: [] as string[] })),
      token.map((t) => ({ text: `Bearer ${t}`, cpfs: [] as string[], tokens: [t] })),
      controls.map((text) => ({ text, cpfs: [] as string[], tokens: [] as string[] })),
      known.map((text) => ({ text, cpfs: [] as string[], tokens: [] as string[] })),
    ),
    { minLength: 1, maxLength: 3 },
  )
  .map((parts) => ({
    name: parts.map((p) => p.text).join(''),
    secrets: { cpfs: parts.flatMap((p) => p.cpfs), tokens: parts.flatMap((p) => p.tokens) },
  }));

/** How a server behind echoes a name: where in Prism's location, in which message, or as a sandbox property. */
const echo = fc.record({
  where: fc.constantFrom('body', 'query', 'header', 'nowhere'),
  parent: fc.constantFrom([], ['address'], ['address', 'state']),
  how: fc.constantFrom('location', 'found', 'required'),
  property: fc.constantFrom('pointer', 'nested pointer', 'bare'),
});

const request = fc.record({
  names: fc.array(fc.tuple(hostileName, echo), { minLength: 1, maxLength: 4 }),
  pathCpf: cpfSpelling,
  prism: fc.boolean(),
});

// An HTTP header carries only visible ASCII: everything else in the JSON is written as \uXXXX.
const asciiJson = (value: unknown): string =>
  JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const pointer = (name: string) => `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** The property at `depth`: 60 runs in full, a tenth (at least 10) quick, from the same seed. */
export function requestLogHostileProperty(depth: Depth): void {
  const RUNS = { seed: 20261124, numRuns: runsAt(depth, 60) };
  let upstream: FaultServer;
  let front: RequestLog;
  const lines: string[] = [];

  beforeAll(async () => {
    upstream = await startFaultServer();
    front = await startRequestLog({
      target: upstream.url,
      host: '127.0.0.1',
      port: 0,
      log: (line) => lines.push(line),
    });
  });
  afterAll(async () => {
    await front?.stop();
    await upstream?.close();
  });

  describe('the request log under hostile 422s', () => {
    // fast-check itself, not @fast-check/vitest's test.prop: importing that walks every chain of vitest's
    // test (skip, only, concurrent, …) and was 3 s of CPU in each worker that loaded it.
    it('one line per request; no control character, CPF, token or name from the request (fast-check, fixed seed)', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 3 }), async (requests) => {
          lines.length = 0;
          // The server behind echoes the member names of the body it got, as Prism or the sandbox would.
          upstream.handle((_req, res, body) => {
            const sent = JSON.parse(body) as {
              echo: { name: string; where: string; parent: string[]; how: string; property: string }[];
              prism: boolean;
            };
            const violations = sent.echo.map(({ name, where, parent, how }) => {
              const location =
                where === 'nowhere' ? [] : ['request', where, ...(how === 'location' ? [...parent, name] : parent)];
              const message =
                how === 'found'
                  ? `must NOT have additional properties; found '${name}'`
                  : how === 'required'
                    ? `must have required property '${name}'`
                    : `must match '${name}'`;
              return { location, severity: 'Error', code: name, message };
            });
            const problem = {
              status: 422,
              [sent.echo[0]!.name]: { [sent.echo[0]!.name]: sent.echo[0]!.name },
              violations: sent.echo.map(({ name, parent, property }) => ({
                property:
                  property === 'bare'
                    ? name
                    : property === 'pointer'
                      ? pointer(name)
                      : parent.map(pointer).join('') + pointer(name),
                reason: name,
              })),
            };
            res.writeHead(422, {
              'content-type': 'application/problem+json',
              ...(sent.prism ? { 'sl-violations': asciiJson(violations) } : {}),
            });
            res.end(JSON.stringify(problem));
          });
          const secrets: Secrets = { cpfs: [], tokens: [] };
          await Promise.all(
            requests.map(async ({ names, pathCpf, prism }) => {
              secrets.cpfs.push(pathCpf.digits, ...names.flatMap(([n]) => n.secrets.cpfs));
              secrets.tokens.push(...names.flatMap(([n]) => n.secrets.tokens));
              const body = {
                echo: names.map(([n, e]) => ({ name: n.name, ...e })),
                prism,
                ...Object.fromEntries(names.map(([n]) => [n.name, 1])),
              };
              const response = await fetch(
                `${front.url}/v2/customers/${encodeURIComponent(pathCpf.written)}?DocumentNumber=${pathCpf.digits}`,
                { method: 'PUT', body: JSON.stringify(body) },
              );
              expect(response.status).toBe(422);
              await response.arrayBuffer();
            }),
          );
          await until(() => lines.length >= requests.length);
          expect(lines).toHaveLength(requests.length);
          for (const line of lines) {
            expect(line).not.toMatch(/[\p{Cc}\p{Cf}\u2028\u2029]/u);
            const digitsOnly = line.replace(/%[0-9a-f]{2}/gi, '').replace(/[^0-9]/g, '');
            for (const digits of secrets.cpfs) expect(digitsOnly).not.toContain(digits);
            for (const secret of secrets.tokens) expect(line).not.toContain(secret);
            expect(line).not.toMatch(/Bearer\s+(?!\*)/i);
            const [, fields] = /^PUT \/v2\/customers\/\S+ HTTP 422 in \d+ ms, fields: (.*)$/.exec(line) ?? [];
            expect(fields).toBeDefined();
            for (const field of fields!.split(', ')) expect(CONTRACT_NAMES).toContain(field);
          }
        }),
        RUNS,
      );
    });
  });
}
