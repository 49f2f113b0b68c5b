// The seeded world: API clients (a token each), their customer accounts, and each account's PIX keys.
// Customers come from a seeded Faker (pt_BR); each key is derived from (seed, position) alone, so it
// is the same on every run and in any order (page.ts derives them all once, at creation).
import type { NaturalPersonUpdate, PixKey } from '../types.js';
import { seededFaker } from './faker.js';
import { cnpj, cpf, hashSeed, Random } from './random.js';

/** A customer account of a client, as a test addresses it. */
export interface SandboxAccount {
  /** The `account_id` its keys carry. */
  accountId: string;
  /** The `Account` query parameter of an update. */
  account: string;
  /** The customer's CPF, the `DocumentNumber` of an update (synthetic, with valid check digits). */
  documentNumber: string;
}

/** A seeded API client: its bearer token (synthetic) and its customer accounts. */
export interface SandboxClient {
  token: string;
  accounts: SandboxAccount[];
}

/** The registration data an update can change: every field of the update body. */
export type CustomerData = Required<Pick<NaturalPersonUpdate, 'phoneNumber' | 'email' | 'isPoliticallyExposedPerson' | 'address'>> &
  Pick<NaturalPersonUpdate, 'socialName'>;

export interface SeededAccount extends SandboxAccount {
  clientIndex: number;
  accountIndex: number;
  /** Registered name: the beneficiary entity of its keys; an update cannot change it. */
  name: string;
  branchCode: string;
  createdAt: string;
  data: CustomerData;
}

export interface World {
  seed: number;
  keysPerAccount: number;
  clients: SandboxClient[];
  /** accounts[clientIndex][accountIndex] */
  accounts: SeededAccount[][];
}

const NEIGHBORHOOD_KINDS = ['Jardim', 'Vila', 'Parque', 'Residencial', 'Conjunto', 'Vila Nova'] as const;
const DDD = ['11', '12', '19', '21', '24', '27', '31', '41', '47', '48', '51', '61', '62', '71', '81', '85', '91', '92', '98'] as const;
const KEY_TYPES = ['cpf', 'cnpj', 'email', 'phone', 'evp'] as const;
// After the first five keys (one of each type), random keys (evp) are the commonest, as in the key directory.
const LATER_TYPES = ['evp', 'evp', 'evp', 'email', 'email', 'phone', 'phone', 'cpf', 'cnpj'] as const;
const EMAIL_DOMAINS = ['gmail.com', 'hotmail.com', 'bol.com.br', 'uol.com.br', 'yahoo.com.br', 'outlook.com'] as const;
const HEX = 16;

const ascii = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '.')
    .replace(/^\.|\.$/g, '');

export function buildWorld(seedInput: string | number, clients: number, accountsPerClient: number, keysPerAccount: number): World {
  const seed = hashSeed(seedInput);
  const faker = seededFaker(seed);
  const world: World = { seed, keysPerAccount, clients: [], accounts: [] };
  for (let c = 0; c < clients; c += 1) {
    const random = new Random(seed, c, 0x70c3);
    let token = 'sbx_';
    for (let i = 0; i < 4; i += 1) token += random.next().toString(HEX).padStart(8, '0');
    const accounts: SeededAccount[] = [];
    for (let a = 0; a < accountsPerClient; a += 1) {
      const r = new Random(seed, c, a, 0xacc);
      const firstName = faker.person.firstName();
      const lastName = faker.person.lastName();
      const name = `${firstName} ${lastName}`;
      const year = 2015 + r.below(10);
      const createdAt = new Date(Date.UTC(year, r.below(12), 1 + r.below(28), r.below(24), r.below(60), r.below(60))).toISOString();
      accounts.push({
        clientIndex: c,
        accountIndex: a,
        accountId: r.uuid(),
        account: `${1 + r.below(9)}${r.digits(11)}`,
        documentNumber: cpf(r),
        name,
        branchCode: '0001',
        createdAt,
        data: {
          phoneNumber: faker.phone.number({ style: 'international' }),
          email: faker.internet.email({ firstName, lastName }).normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase(),
          isPoliticallyExposedPerson: r.below(50) === 0,
          address: {
            postalCode: faker.location.zipCode('########'),
            street: faker.location.street(),
            number: faker.location.buildingNumber(),
            neighborhood: `${faker.helpers.arrayElement(NEIGHBORHOOD_KINDS)} ${faker.person.lastName()}`,
            city: faker.location.city(),
            state: faker.location.state({ abbreviated: true }) as CustomerData['address']['state'],
          },
        },
      });
    }
    world.accounts.push(accounts);
    world.clients.push({ token, accounts: accounts.map(({ accountId, account, documentNumber }) => ({ accountId, account, documentNumber })) });
  }
  return world;
}

interface KeyValue {
  id: string;
  key: string;
  keyType: (typeof KEY_TYPES)[number];
}

/** What every key of an account shares, worked out once per account (its name never changes). */
export interface AccountKeys {
  account: SeededAccount;
  seed: number;
  /** The local part of its e-mail keys, before the key's index. */
  emailLocal: string;
  /** The JSON of the fields every key of the account shares, closing the key's object. */
  sharedJson: string;
  /** `sharedJson` as UTF-8, copied into every page (the holder's name may not be ASCII). */
  sharedBytes: Uint8Array;
}

const accountKeysCache = new WeakMap<SeededAccount, AccountKeys>();

const beneficiaryAccount = (account: SeededAccount) => ({ branch_code: account.branchCode, account_code: account.account, account_type: 'CC', created_at: account.createdAt });
const beneficiaryEntity = (account: SeededAccount) => ({ name: account.name, document_type: 'cpf' as const, document: account.documentNumber });

export function accountKeys(world: World, account: SeededAccount): AccountKeys {
  let found = accountKeysCache.get(account);
  // An account belongs to one world (buildWorld makes it), so its seed never changes under the cache.
  if (found === undefined) {
    const sharedJson = `"key_status":"active","account_id":${JSON.stringify(account.accountId)},"beneficiary_account":${JSON.stringify(beneficiaryAccount(account))},"beneficiary_entity":${JSON.stringify(beneficiaryEntity(account))}}`;
    found = { account, seed: world.seed, emailLocal: ascii(account.name), sharedJson, sharedBytes: Buffer.from(sharedJson, 'utf8') };
    // Stryker disable next-line CallExpression: a cache; working it out again gives the same text.
    accountKeysCache.set(account, found);
  }
  return found;
}

function keyValue(shared: AccountKeys, index: number): KeyValue {
  const { account } = shared;
  const r = new Random(shared.seed, account.clientIndex, account.accountIndex, index, 0x6b);
  const keyType = index < KEY_TYPES.length ? KEY_TYPES[index]! : r.pick(LATER_TYPES);
  const id = r.uuid();
  let key: string;
  switch (keyType) {
    case 'cpf':
      key = cpf(r);
      break;
    case 'cnpj':
      key = cnpj(r);
      break;
    case 'email':
      key = `${shared.emailLocal}${index}@${r.pick(EMAIL_DOMAINS)}`;
      break;
    case 'phone':
      key = `+55${r.pick(DDD)}9${r.digits(8)}`;
      break;
    default:
      key = r.uuid();
  }
  return { id, key, keyType };
}

/** Key `index` of an account: the same record every time it is asked for. */
export function keyAt(world: World, account: SeededAccount, index: number): PixKey {
  const { id, key, keyType } = keyValue(accountKeys(world, account), index);
  return {
    id,
    key,
    key_type: keyType,
    key_status: 'active',
    account_id: account.accountId,
    beneficiary_account: beneficiaryAccount(account),
    beneficiary_entity: beneficiaryEntity(account),
  };
}

/**
 * `JSON.stringify(keyAt(...))`, written as text: a page of new keys costs less this way
 * (`npm run bench`). Key values are ASCII digits, hex, `+`, `.`, `@` and lower-case letters, which JSON
 * needs no escape for; the shared part (with the holder's name) goes through JSON.stringify.
 */
export function keyJson(world: World, account: SeededAccount, index: number): string {
  const shared = accountKeys(world, account);
  return keyHead(shared, index) + shared.sharedJson;
}

/** The start of a key's JSON, up to its shared part: ASCII only (see `keyJson`). */
export function keyHead(shared: AccountKeys, index: number): string {
  const { id, key, keyType } = keyValue(shared, index);
  return `{"id":"${id}","key":"${key}","key_type":"${keyType}",`;
}
