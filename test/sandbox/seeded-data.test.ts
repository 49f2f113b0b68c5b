// Seeded data: the same seed gives the same bytes; the data is valid for the contract and Brazilian.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { buildWorld, keyAt, keyJson } from '../../src/sandbox/data.js';
import type { PixKey } from '../../src/types.js';
import { isValidCpf } from '../../src/validation/index.js';
import { schemaErrors } from '../support/ajv.js';
import { BRAZILIAN_STATES } from '../support/arbitraries.js';
import { holderKinds, spec } from '../support/spec.js';

/** The key types the contract names (KnownPixKeyType), from the spec. */
const KEY_TYPES = spec.components.schemas!.KnownPixKeyType!.enum as string[];

// What the contract allows, read from the spec (not from the sandbox's code): the key statuses it
// names (the first is the one the service shows) and the kinds of holder.
const STATUSES: string[] = spec.components.schemas!.PixKey!.properties!.key_status!.examples;
const HOLDER_KINDS = holderKinds();

const list = async (sandbox: ReturnType<typeof createSandbox>, token: string, limit = 200) =>
  (
    await sandbox.fetch(
      new Request(`http://sandbox.test/v2/api/pix/keys/list-keys?limit=${limit}`, {
        headers: { authorization: `Bearer ${token}`, 'user-agent': 't/1' },
      }),
    )
  ).text();

describe('seeded data', () => {
  it('is byte for byte the same for the same seed, and differs for another seed', async () => {
    const a = createSandbox({ seed: 'ci', clients: 2, keysPerAccount: 30 });
    const b = createSandbox({ seed: 'ci', clients: 2, keysPerAccount: 30 });
    const c = createSandbox({ seed: 'other', clients: 2, keysPerAccount: 30 });
    expect(JSON.stringify(b.clients)).toBe(JSON.stringify(a.clients));
    expect(JSON.stringify(b.snapshot())).toBe(JSON.stringify(a.snapshot()));
    expect(await list(b, b.clients[1]!.token)).toBe(await list(a, a.clients[1]!.token));
    expect(JSON.stringify(c.snapshot())).not.toBe(JSON.stringify(a.snapshot()));
    expect(createSandbox({ seed: 7 }).clients).toEqual(createSandbox({ seed: 7 }).clients);
  });

  it('is valid for the contract and realistic for Brazil', () => {
    const sandbox = createSandbox({ seed: 3, clients: 3, accountsPerClient: 4, keysPerAccount: 40 });
    const snapshot = sandbox.snapshot();
    const types = new Set<string>();
    for (const client of sandbox.clients)
      for (const account of client.accounts) expect(isValidCpf(account.documentNumber)).toBe(true);
    for (const { accounts } of snapshot.clients) {
      for (const account of accounts) {
        expect(schemaErrors('/components/schemas/NaturalPersonUpdate', account.data)).toEqual([]);
        expect(account.data.email).toBe(account.data.email.toLowerCase());
        expect(account.data.phoneNumber).toMatch(/^\+55[0-9]{10,11}$/);
        expect(BRAZILIAN_STATES).toContain(account.data.address.state);
        for (const key of account.keys) {
          types.add(key.key_type);
          if (key.key_type === 'email') expect(key.key).toBe(key.key.toLowerCase());
        }
      }
    }
    expect([...types].sort()).toEqual([...KEY_TYPES].sort());
  });

  it('seeds every key status and holder kind the contract names, each at its documented share, past the first five keys of an account', () => {
    const world = buildWorld('shares', 1, 20, 1_000);
    const statuses = new Map<string, number>();
    const kinds = new Map<string, number>();
    // What breaks a rule, by key: asserted once at the end (three expects for each of 20,000 keys were
    // 1.2 s of CPU).
    const broken: string[] = [];
    /** Whether the customer holds the key: the holder is its name and CPF, and nothing else. */
    const customers = (holder: Record<string, unknown>, account: { name: string; documentNumber: string }) =>
      Object.keys(holder).length === 3 &&
      holder.name === account.name &&
      holder.document_type === 'cpf' &&
      holder.document === account.documentNumber;
    for (const account of world.accounts.flat()) {
      const companies = new Set<string>();
      for (let index = 0; index < 1_000; index += 1) {
        const key = keyAt(world, account, index);
        const holder = key.beneficiary_entity;
        const at = `${account.account} key ${index}`;
        if (index < 5) {
          // One of each type, active, held by the customer (as the service shows its keys), but the
          // CNPJ key: a natural person cannot hold one, so the account's company holds it.
          if (key.key_status !== 'active') broken.push(`${at}: ${key.key_status}, not active`);
          if (key.key_type === 'cnpj') {
            if (holder.document_type !== 'cnpj' || holder.document !== key.key)
              broken.push(`${at}: a cnpj key held by ${JSON.stringify(holder)}`);
            companies.add(JSON.stringify(holder));
          } else if (!customers(holder, account)) broken.push(`${at}: held by ${JSON.stringify(holder)}`);
          continue;
        }
        statuses.set(key.key_status, (statuses.get(key.key_status) ?? 0) + 1);
        kinds.set(holder.document_type, (kinds.get(holder.document_type) ?? 0) + 1);
        if (holder.document_type === 'cpf') {
          if (!customers(holder, account)) broken.push(`${at}: held by ${JSON.stringify(holder)}`);
        } else {
          if (!isValidCnpj(holder.document)) broken.push(`${at}: CNPJ ${holder.document} invalid`);
          if (holder.name === account.name) broken.push(`${at}: company named as the customer`);
          companies.add(JSON.stringify(holder));
        }
        const errors = schemaErrors('/components/schemas/PixKey', key);
        if (errors.length > 0) broken.push(`${at}: ${JSON.stringify(errors)}`);
      }
      // One company per account holds its company keys.
      expect(companies.size).toBeLessThanOrEqual(1);
    }
    expect(broken).toEqual([]);
    const keys = 20 * 995;
    expect([...statuses.keys()].sort()).toEqual([...STATUSES].sort());
    expect([...kinds.keys()].sort()).toEqual([...HOLDER_KINDS].sort());
    // About 3 % of the keys for each status but the first, about 4 % for each holder kind but the customer's.
    for (const status of STATUSES.slice(1)) {
      expect(statuses.get(status)! / keys, status).toBeGreaterThan(0.02);
      expect(statuses.get(status)! / keys, status).toBeLessThan(0.04);
    }
    expect(kinds.get('cnpj')! / keys).toBeGreaterThan(0.03);
    expect(kinds.get('cnpj')! / keys).toBeLessThan(0.05);
  });

  it('shows every status and holder kind with the default seed from 100 keys per account; only active keys at the default 5', async () => {
    const seen = async (keysPerAccount: number) => {
      const sandbox = createSandbox({ keysPerAccount });
      const page = JSON.parse(await list(sandbox, sandbox.clients[0]!.token)) as { data: PixKey[] };
      return new Set(
        page.data.flatMap((key) => [`status ${key.key_status}`, `holder ${key.beneficiary_entity.document_type}`]),
      );
    };
    expect([...(await seen(5))].sort()).toEqual(['holder cnpj', 'holder cpf', 'status active']);
    expect([...(await seen(100))].sort()).toEqual(
      [...STATUSES.map((status) => `status ${status}`), ...HOLDER_KINDS.map((kind) => `holder ${kind}`)].sort(),
    );
  });

  it("obeys the key directory: every cpf and cnpj key is its holder's own document, and only legal entities hold cnpj keys", async () => {
    const sandbox = createSandbox({ seed: 'dict', clients: 2, accountsPerClient: 3, keysPerAccount: 100 });
    const counts: Record<string, number> = { cpf: 0, cnpj: 0 };
    for (const client of sandbox.clients) {
      const page = JSON.parse(await list(sandbox, client.token)) as { data: PixKey[] };
      expect(page.data).toHaveLength(200);
      for (const { key, key_type, beneficiary_entity: holder } of page.data) {
        if (key_type !== 'cpf' && key_type !== 'cnpj') continue;
        counts[key_type] = counts[key_type]! + 1;
        expect([key_type, key]).toEqual([holder.document_type, holder.document]);
      }
      // Each customer's CPF key is the CPF it is updated by.
      const documents = new Set(page.data.filter((k) => k.key_type === 'cpf').map((k) => k.key));
      for (const account of client.accounts.slice(0, 2)) expect(documents).toContain(account.documentNumber);
    }
    // Two pages of 200 keys cover two accounts of each client: one cpf and one cnpj key each.
    expect(counts).toEqual({ cpf: 4, cnpj: 4 });
  });

  it('keeps tokens out of the snapshot and masks CPFs in it', () => {
    const sandbox = createSandbox({ seed: 5 });
    const text = JSON.stringify(sandbox.snapshot());
    expect(text).not.toContain(sandbox.clients[0]!.token);
    for (const account of sandbox.clients[0]!.accounts) expect(text).not.toContain(account.documentNumber);
    expect(text).not.toMatch(/"(document|key)":"[0-9]{11}"/);
  });

  it('writes a key as text exactly as JSON.stringify writes the key record', () => {
    const world = buildWorld('json', 2, 2, 300);
    world.accounts[1]![0]!.name = 'Conceição "Ção" D\'Ávila \\ Jr.';
    const shown = new Set<string>();
    for (const accounts of world.accounts) {
      for (const account of accounts) {
        for (let index = 0; index < 300; index += 1) {
          const key = keyAt(world, account, index);
          expect(keyJson(world, account, index)).toBe(JSON.stringify(key));
          shown.add(key.key_status).add(key.beneficiary_entity.document_type);
        }
      }
    }
    // Every status and holder kind went through the text path.
    expect([...shown].sort()).toEqual([...STATUSES, ...HOLDER_KINDS].sort());
  });

  it('derives keys that are real for their type, and customers that are plausible', () => {
    const world = buildWorld('real', 20, 1, 25);
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(world.clients.every((client) => /^sbx_[0-9a-f]{32}$/.test(client.token))).toBe(true);
    expect(new Set(world.clients.map((client) => client.token)).size).toBe(20);
    const keys: PixKey[] = [];
    let exposed = 0;
    for (const account of world.accounts.flat()) {
      expect(account.account).toMatch(/^[1-9][0-9]{11}$/);
      expect(isValidCpf(account.documentNumber)).toBe(true);
      expect(account.accountId).toMatch(uuid);
      const created = Date.parse(account.createdAt);
      expect(created >= Date.UTC(2015, 0, 1) && created < Date.UTC(2025, 0, 1), account.createdAt).toBe(true);
      expect(account.data.email).toMatch(/^[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/);
      expect(account.data.address.neighborhood).toMatch(/^\S+( \S+)+$/);
      if (account.data.isPoliticallyExposedPerson) exposed += 1;
      for (let index = 0; index < 25; index += 1) keys.push(keyAt(world, account, index));
    }
    // Politically exposed persons are a small minority.
    expect(exposed).toBeLessThan(3);
    for (const key of keys) {
      expect(schemaErrors('/components/schemas/PixKey', key)).toEqual([]);
      expect(key.id).toMatch(uuid);
      const valid: Record<string, () => boolean> = {
        cpf: () => isValidCpf(key.key),
        cnpj: () => isValidCnpj(key.key) && key.key.slice(8, 12) === '0001',
        email: () => /^[a-z0-9.]+[0-9]+@[a-z]+(\.[a-z]+)+$/.test(key.key),
        // +55, a two-digit area code (no zero), then a mobile number: 9 and eight digits.
        phone: () => /^\+55[1-9][1-9]9[0-9]{8}$/.test(key.key),
        evp: () => uuid.test(key.key),
      };
      expect(valid[key.key_type]?.(), `${key.key_type} ${key.key}`).toBe(true);
    }
    const first = keys.filter((_, n) => n % 25 < 5).map((key) => key.key_type);
    const later = keys.filter((_, n) => n % 25 >= 5).map((key) => key.key_type);
    for (const type of KEY_TYPES) expect(first).toContain(type);
    // A document is registered once, as its holder's own key: later keys are never document keys.
    expect([...new Set(later)].sort()).toEqual(KEY_TYPES.filter((type) => !holderKinds().includes(type)).sort());
    expect(new Set(keys.map((key) => key.id)).size).toBe(keys.length);
    expect(new Set(keys.map((key) => key.key)).size).toBe(keys.length);
  });

  it("makes e-mail keys from the holder's name in ASCII, and tells a numeric seed from the same text", () => {
    const world = buildWorld('names', 1, 1, 3);
    world.accounts[0]![0]!.name = " Ção  D'Ávila-Júnior ";
    expect(keyAt(world, world.accounts[0]![0]!, 2).key).toMatch(/^cao\.d\.avila\.junior2@[a-z.]+$/);
    expect(createSandbox({ seed: 7 }).clients).not.toEqual(createSandbox({ seed: '7' }).clients);
    expect(createSandbox({ seed: 7 }).clients).not.toEqual(createSandbox({ seed: 8 }).clients);
  });
});

/**
 * CNPJ check digits (modulo 11, weights 2 to 9 from the right, each character its ASCII code minus 48:
 * IN RFB nº 2.229/2024), written independently of the sandbox and of src/validation.
 */
function isValidCnpj(value: string): boolean {
  if (!/^[0-9A-Z]{12}[0-9]{2}$/.test(value)) return false;
  const values = [...value].map((char) => char.charCodeAt(0) - 48);
  const check = (length: number) => {
    let sum = 0;
    for (let i = 0; i < length; i += 1) sum += values[length - 1 - i]! * ((i % 8) + 2);
    const remainder = sum % 11;
    return remainder < 2 ? 0 : 11 - remainder;
  };
  return check(12) === values[12] && check(13) === values[13];
}

describe('alphanumeric CNPJs (since July 2026)', () => {
  it('the independent check above takes the RFB example and refuses it with a wrong check digit', () => {
    expect(isValidCnpj('12ABC34501DE35')).toBe(true);
    expect(isValidCnpj('12ABC34501DE36')).toBe(false);
    expect(isValidCnpj('11222333000181')).toBe(true);
  });

  it('are served to about a quarter of the companies, as holders and as their CNPJ keys, beside numeric ones', async () => {
    const world = buildWorld('alphanumeric', 4, 50, 5);
    const companies = world.accounts.flat().map((account) => keyAt(world, account, 1));
    expect(companies.every((key) => key.key_type === 'cnpj' && key.beneficiary_entity.document === key.key)).toBe(true);
    expect(companies.every((key) => isValidCnpj(key.key))).toBe(true);
    const alphanumeric = companies.filter((key) => /[A-Z]/.test(key.key)).length;
    expect(alphanumeric / companies.length).toBeGreaterThan(0.15);
    expect(alphanumeric / companies.length).toBeLessThan(0.35);
    // Served over HTTP, as the client's response checks read them: no drift in either form.
    const sandbox = createSandbox({ seed: 'alphanumeric', clients: 1, accountsPerClient: 40, keysPerAccount: 5 });
    const page = JSON.parse(await list(sandbox, sandbox.clients[0]!.token)) as { data: PixKey[] };
    const served = page.data.filter((key) => key.key_type === 'cnpj').map((key) => key.key);
    expect(served.some((key) => /[A-Z]/.test(key))).toBe(true);
    expect(served.some((key) => /^[0-9]+$/.test(key))).toBe(true);
  });
});
