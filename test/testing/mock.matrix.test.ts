// startMock as a consumer's tests use it: seeded dynamic mode, errors mode, a stop() that really
// frees the port, and plain messages when the spec or the port is wrong.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/testing/mock.js';
import { schemaErrors } from '../support/ajv.js';
import { exampleValue } from '../support/fixtures.js';

const LIST = '/v2/api/pix/keys/list-keys';
const HEADERS = { Authorization: 'Bearer mock-test', 'User-Agent': 'mock-tests/1.0', Accept: 'application/json' };

// A response example that breaks its own schema: what `errors: true` exists to catch.
const BAD_EXAMPLE_SPEC = `openapi: 3.1.0
info: { title: bad example, version: '1' }
paths:
  /thing:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { type: object, required: [n], properties: { n: { type: integer } } }
              example: { n: not a number }
`;

// Prism's start is seconds of CPU: on a loaded machine a minute and more, never a failure (startMock's
// default of 30 s failed this file at a load average of 17). Below the run's test timeout (vitest.config.ts).
const READY_MS = 240_000;

let dir: string;
let seeded: RunningMock | undefined;
let strict: RunningMock | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baas-mock-test-'));
  await writeFile(join(dir, 'bad-example.yaml'), BAD_EXAMPLE_SPEC);
  await writeFile(join(dir, 'broken.yaml'), 'openapi: 3.1.0\ninfo: [unclosed\n');
  // Started together to save time; whichever started is stopped in afterAll even if another failed.
  const started = await Promise.allSettled([
    startMock({ dynamic: true, seed: 'seed-a', readyTimeoutMs: READY_MS }),
    startMock({ spec: join(dir, 'bad-example.yaml'), errors: true, readyTimeoutMs: READY_MS }),
  ]);
  [seeded, strict] = started.map((result) => (result.status === 'fulfilled' ? result.value : undefined));
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
});

afterAll(async () => {
  await Promise.all([seeded?.stop(), strict?.stop()]);
  await rm(dir, { recursive: true, force: true });
});

const listKeys = async (mock: RunningMock) => {
  const response = await fetch(mock.url + LIST, { headers: HEADERS });
  expect(response.status).toBe(200);
  return (await response.json()) as unknown;
};

const refused = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(false);
    });
    socket.once('error', () => done(true));
  });

describe('startMock', () => {
  it('listens on 127.0.0.1 on a free port', () => {
    expect(seeded!.url).toBe(`http://127.0.0.1:${seeded!.port}`);
    expect(strict!.url).toBe(`http://127.0.0.1:${strict!.port}`);
    expect(strict!.port).not.toBe(seeded!.port);
  });

  it('dynamic with a seed: a generated body that satisfies the schema, the same on every request', async () => {
    const first = await listKeys(seeded!);
    const again = await listKeys(seeded!);
    expect(schemaErrors('/components/schemas/PixKeyList', first)).toEqual([]);
    // Generated, not the documented example; unseeded, Prism would generate a new body each time.
    expect(first).not.toEqual(exampleValue('FirstPage'));
    expect(again).toEqual(first);
  });

  it('errors: a response that breaks the contract becomes a 500 naming the violation', async () => {
    const response = await fetch(`${strict!.url}/thing`);
    expect(response.status).toBe(500);
    const problem = (await response.json()) as { type: string; validation: { location: string[] }[] };
    expect(problem.type).toMatch(/VIOLATIONS/);
    expect(problem.validation[0]?.location).toEqual(['response', 'body', 'n']);
  });

  // Stops the errors-mode mock, so it runs after the tests that use it (tests in a file run in order).
  it('stop() ends the process: the port is closed afterwards, and a second stop() is harmless', async () => {
    expect(await refused(strict!.port)).toBe(false);
    await strict!.stop();
    expect(await refused(strict!.port)).toBe(true);
    await expect(strict!.stop()).resolves.toBeUndefined();
  });
});

// Independent failures, run side by side to save time.
describe.concurrent('startMock rejects with a plain reason', () => {
  it('rejects naming EADDRINUSE when the port it was given is taken', async ({ expect }) => {
    await expect(startMock({ port: seeded!.port, readyTimeoutMs: READY_MS })).rejects.toThrow(
      /^startMock: Prism could not serve .*: .*EADDRINUSE/,
    );
  });

  it('rejects at once, naming the file, when the spec path does not exist', async ({ expect }) => {
    const missing = join(dir, 'no-such-spec.yaml');
    await expect(startMock({ spec: missing, readyTimeoutMs: READY_MS })).rejects.toThrow(
      `startMock: spec names an OpenAPI document that cannot be read: ${missing} (ENOENT)`,
    );
  });

  it("rejects with Prism's reason first when the spec does not parse", async ({ expect }) => {
    const broken = join(dir, 'broken.yaml');
    await expect(startMock({ spec: broken, readyTimeoutMs: READY_MS })).rejects.toThrow(
      new RegExp(`^startMock: Prism could not serve ${broken}: Error parsing`),
    );
  });
});
