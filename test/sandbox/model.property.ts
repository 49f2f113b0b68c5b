// Model-based test: random sequences of updates, list walks, bad requests and resets against the
// sandbox, checked after every step against a plain model of the state. Every response is also
// checked against the bundled spec (conformance.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactJson } from '../../src/redact.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { NaturalPersonUpdate } from '../../src/index.js';
import { cpf, naturalPersonUpdate } from '../support/arbitraries.js';
import { type Depth, runsAt } from '../properties/depth.js';
import { conforming } from './conformance.js';
import { holderKinds, spec } from '../support/spec.js';

const CLIENTS = 2;
const ACCOUNTS = 2;
// Enough keys past the first five of each account that, with this seed, every key status and holder
// kind of the contract appears among them (the sandbox seeds each at a few percent).
const KEYS = 30;
const STATUSES: string[] = spec.components.schemas!.PixKey!.properties!.key_status!.examples;
const HOLDER_KINDS = holderKinds();
const BASE = 'http://sandbox.test';
const UPDATE = `${BASE}/v2/api/baas-onboarding/account/natural-person`;
const LIST = `${BASE}/v2/api/pix/keys/list-keys`;

interface Model {
  /** data[client][account]: the customer's registration data. */
  data: any[][];
  readonly initial: string;
  /** keys[client]: each key of the client's walk as `id status holder-kind`; keys never change. */
  readonly keys: string[][];
  /** Every key status and holder kind a walk has shown. */
  readonly seen: Set<string>;
}
interface Real {
  sandbox: Sandbox;
}

const auth = (sandbox: Sandbox, client: number) => ({ authorization: `Bearer ${sandbox.clients[client]!.token}` });

function put(
  sandbox: Sandbox,
  client: number,
  query: { Account: string; DocumentNumber: string },
  body: string,
  contentType = 'application/json',
) {
  return sandbox.fetch(
    new Request(`${UPDATE}?${new URLSearchParams(query)}`, {
      method: 'PUT',
      headers: { ...auth(sandbox, client), 'content-type': contentType },
      body,
    }),
  );
}

function agree(model: Model, real: Real): void {
  const snapshot = real.sandbox.snapshot();
  // The snapshot shows the state with anything shaped like a CPF masked (an 11-digit coordinate too).
  expect(snapshot.clients.map((c) => c.accounts.map((a) => a.data))).toEqual(redactJson(model.data));
}

class Update implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly client: number,
    readonly owner: number,
    readonly account: number,
    readonly body: NaturalPersonUpdate,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const target = real.sandbox.clients[this.owner]!.accounts[this.account]!;
    const { status, body } = await conforming(
      'updateNaturalPerson',
      await put(
        real.sandbox,
        this.client,
        { Account: target.account, DocumentNumber: target.documentNumber },
        JSON.stringify(this.body),
      ),
    );
    if (this.client === this.owner) {
      expect(status).toBe(200);
      expect(body).toEqual({ version: '1.0.0', status: 'SUCCESS' });
      const row = model.data[this.owner]!;
      row[this.account] = { ...row[this.account], ...structuredClone(this.body) };
    } else {
      expect(status).toBe(403);
    }
    agree(model, real);
  }
  toString = () => `Update(client ${this.client} → ${this.owner}/${this.account}, ${Object.keys(this.body).join(',')})`;
}

class UpdateUnknown implements fc.AsyncCommand<Model, Real> {
  constructor(readonly documentNumber: string) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const { status } = await conforming(
      'updateNaturalPerson',
      await put(real.sandbox, 0, { Account: '1', DocumentNumber: this.documentNumber }, '{"email":"a@b.com"}'),
    );
    expect(status).toBe(404);
    agree(model, real);
  }
  toString = () => 'UpdateUnknown';
}

const BAD_UPDATES: { name: string; status: number; property?: string; send: (s: Sandbox) => Promise<Response> }[] = [
  {
    name: 'not JSON',
    status: 400,
    send: (s) =>
      put(
        s,
        0,
        { Account: s.clients[0]!.accounts[0]!.account, DocumentNumber: s.clients[0]!.accounts[0]!.documentNumber },
        '{"email":',
      ),
  },
  {
    name: 'wrong content type',
    status: 400,
    send: (s) =>
      put(
        s,
        0,
        { Account: s.clients[0]!.accounts[0]!.account, DocumentNumber: s.clients[0]!.accounts[0]!.documentNumber },
        '{"email":"a@b.com"}',
        'text/plain',
      ),
  },
  {
    name: 'bad phone',
    status: 422,
    property: '/phoneNumber',
    send: (s) =>
      put(
        s,
        0,
        { Account: s.clients[0]!.accounts[0]!.account, DocumentNumber: s.clients[0]!.accounts[0]!.documentNumber },
        '{"phoneNumber":"12345","email":"a@b.com"}',
      ),
  },
  {
    name: 'bad UF',
    status: 422,
    property: '/address/state',
    send: (s) =>
      put(
        s,
        0,
        { Account: s.clients[0]!.accounts[0]!.account, DocumentNumber: s.clients[0]!.accounts[0]!.documentNumber },
        '{"address":{"postalCode":"01310100","street":"R","number":"1","neighborhood":"B","city":"C","state":"XX"}}',
      ),
  },
  {
    name: 'CPF check digit',
    status: 422,
    property: 'DocumentNumber',
    send: (s) =>
      put(s, 0, { Account: s.clients[0]!.accounts[0]!.account, DocumentNumber: '52998224724' }, '{"email":"a@b.com"}'),
  },
  {
    name: 'empty body object',
    status: 422,
    property: 'body',
    send: (s) =>
      put(
        s,
        0,
        { Account: s.clients[0]!.accounts[0]!.account, DocumentNumber: s.clients[0]!.accounts[0]!.documentNumber },
        '{}',
      ),
  },
  {
    name: 'unknown token',
    status: 401,
    send: (s) => s.fetch(new Request(LIST, { headers: { authorization: 'Bearer nope', 'user-agent': 't/1' } })),
  },
  {
    name: 'tampered cursor',
    status: 400,
    send: (s) =>
      s.fetch(
        new Request(`${LIST}?cursor=5.AAAAAAAAAAAAAAAAAAAAAA`, { headers: { ...auth(s, 0), 'user-agent': 't/1' } }),
      ),
  },
  {
    name: 'limit 0',
    status: 422,
    property: 'limit',
    send: (s) => s.fetch(new Request(`${LIST}?limit=0`, { headers: { ...auth(s, 0), 'user-agent': 't/1' } })),
  },
];

class BadRequest implements fc.AsyncCommand<Model, Real> {
  constructor(readonly which: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const bad = BAD_UPDATES[this.which]!;
    const response = await bad.send(real.sandbox);
    const operation =
      response.url.includes('list-keys') ||
      bad.name.includes('token') ||
      bad.name.includes('cursor') ||
      bad.name.includes('limit')
        ? 'listPixKeys'
        : 'updateNaturalPerson';
    const { status, body } = await conforming(operation, response);
    expect(status).toBe(bad.status);
    if (bad.property) expect(body.violations.map((v: { property: string }) => v.property)).toEqual([bad.property]);
    agree(model, real);
  }
  toString = () => `BadRequest(${BAD_UPDATES[this.which]!.name})`;
}

class Walk implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly client: number,
    readonly limit: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const ids: string[] = [];
    const owners: string[] = [];
    const summaries: string[] = [];
    let cursor: string | null = null;
    let requests = 0;
    do {
      const query = new URLSearchParams({ limit: String(this.limit), ...(cursor ? { cursor } : {}) });
      const { status, body } = await conforming(
        'listPixKeys',
        await real.sandbox.fetch(
          new Request(`${LIST}?${query}`, { headers: { ...auth(real.sandbox, this.client), 'user-agent': 'model/1' } }),
        ),
      );
      expect(status).toBe(200);
      expect(body.data.length).toBeLessThanOrEqual(this.limit);
      for (const key of body.data) {
        ids.push(key.id);
        owners.push(key.account_id);
        summaries.push(`${key.id} ${key.key_status} ${key.beneficiary_entity.document_type}`);
        model.seen.add(`status ${key.key_status}`).add(`holder ${key.beneficiary_entity.document_type}`);
      }
      cursor = body.cursor.next;
      requests += 1;
      // A sandbox that never ends the walk fails here instead of hanging.
      expect(requests).toBeLessThanOrEqual(ACCOUNTS * KEYS + 1);
    } while (cursor !== null);
    // The model: every key of every account of the client, once, account by account.
    expect(requests).toBe(Math.max(1, Math.ceil((ACCOUNTS * KEYS) / this.limit)));
    expect(new Set(ids).size).toBe(ACCOUNTS * KEYS);
    expect(owners).toEqual(real.sandbox.clients[this.client]!.accounts.flatMap((a) => Array(KEYS).fill(a.accountId)));
    // Each key's status and holder, as seeded: the same in every walk, whatever updates and resets came before.
    expect(summaries).toEqual(model.keys[this.client]);
    agree(model, real);
  }
  toString = () => `Walk(client ${this.client}, limit ${this.limit})`;
}

class Reset implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real) {
    real.sandbox.reset();
    model.data = JSON.parse(model.initial);
    agree(model, real);
  }
  toString = () => 'Reset';
}

const client = fc.integer({ min: 0, max: CLIENTS - 1 });
const commands = [
  fc
    .tuple(client, client, fc.integer({ min: 0, max: ACCOUNTS - 1 }), naturalPersonUpdate)
    .map(([c, o, a, b]) => new Update(c, o, a, b)),
  cpf.map((d) => new UpdateUnknown(d)),
  fc.integer({ min: 0, max: BAD_UPDATES.length - 1 }).map((i) => new BadRequest(i)),
  fc.tuple(client, fc.integer({ min: 1, max: 20 })).map(([c, l]) => new Walk(c, l)),
  fc.constant(new Reset()),
];

/** The model-based test, at `depth` (../properties/depth.ts): model.test.ts quick, model.matrix.test.ts full. */
export function sandboxAgainstModel(depth: Depth): void {
  const numRuns = runsAt(depth, 200);
  describe('the sandbox against a plain model', () => {
    it(`agrees on every step of random command sequences (fixed seed, ${numRuns} runs)`, async () => {
      const sandbox = createSandbox({
        seed: 'model',
        clients: CLIENTS,
        accountsPerClient: ACCOUNTS,
        keysPerAccount: KEYS,
      });
      const snapshot = sandbox.snapshot();
      const initial = JSON.stringify(snapshot.clients.map((c) => c.accounts.map((a) => a.data)));
      // The model's keys: the seeded records as the snapshot shows them, in walk order.
      const keys = snapshot.clients.map((c) =>
        c.accounts.flatMap((a) =>
          a.keys.map((key) => `${key.id} ${key.key_status} ${key.beneficiary_entity.document_type}`),
        ),
      );
      const seen = new Set<string>();
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: 25 }), async (cmds) => {
          sandbox.reset();
          await fc.asyncModelRun(
            () => ({ model: { data: JSON.parse(initial), initial, keys, seen }, real: { sandbox } }),
            cmds,
          );
        }),
        { seed: 20260110, numRuns },
      );
      // The walks met every key status and every holder kind the contract names (derived from the spec).
      expect([...seen].sort()).toEqual(
        [...STATUSES.map((status) => `status ${status}`), ...HOLDER_KINDS.map((kind) => `holder ${kind}`)].sort(),
      );
    });
  });
}
