// The seeded world: API clients (a token each), their customer accounts, and each account's PIX keys.
// Customers come from a seeded Faker (pt_BR); each key is derived from (seed, position) alone, so it
// is the same on every run and in any order (page.ts derives them all once, at creation).
import type { NaturalPersonUpdate, PixKey } from '../types.js';
import { seededFaker } from './faker.js';
import { cnpj, cpf, hashSeed, Random } from './random.js';
import { DOCUMENT_TYPES, KEY_STATUSES } from './spec.js';

/** A customer account of a client, as a test addresses it. */
export interface SandboxAccount {
  /** The `account_id` its keys carry. */
  accountId: string;
  /** The `Account` query parameter of an update. */
  account: string;
  /** The customer's CPF, the `DocumentNumber` of an update (synthetic, with valid check digits). */
  documentNumber: string;
}

/**
 * A seeded API client: its static bearer token, its OAuth2 client credentials (for the sandbox's token
 * endpoint, `POST /oauth/token`), all synthetic, and its customer accounts.
 */
export interface SandboxClient {
  /** Its static bearer token, accepted as `token` by `createBaasClient`; synthetic. */
  token: string;
  /** The `client_id` of the client credentials grant. */
  clientId: string;
  /** The `client_secret` of the client credentials grant: a sandbox's test credential, never shown by `snapshot()`. */
  clientSecret: string;
  /** Its customer accounts, each with the `Account` and `DocumentNumber` an update names. */
  accounts: SandboxAccount[];
}

/** The registration data an update can change: every field of the update body. */
export type CustomerData = Required<
  Pick<NaturalPersonUpdate, 'phoneNumber' | 'email' | 'isPoliticallyExposedPerson' | 'address'>
> &
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
const DDD = [
  '11',
  '12',
  '19',
  '21',
  '24',
  '27',
  '31',
  '41',
  '47',
  '48',
  '51',
  '61',
  '62',
  '71',
  '81',
  '85',
  '91',
  '92',
  '98',
] as const;
const KEY_TYPES = ['cpf', 'cnpj', 'email', 'phone', 'evp'] as const;
// After the first five keys (one of each type), random keys (evp) are the commonest, as in the key directory.
// No document keys: the directory registers a document once, as its own holder's key (see keyValue).
const LATER_TYPES = ['evp', 'evp', 'evp', 'email', 'email', 'phone', 'phone'] as const;
const EMAIL_DOMAINS = ['gmail.com', 'hotmail.com', 'bol.com.br', 'uol.com.br', 'yahoo.com.br', 'outlook.com'] as const;
const HEX = 16;
const encoder = new TextEncoder();

const ascii = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '.')
    .replace(/^\.|\.$/g, '');

export function buildWorld(
  seedInput: string | number,
  clients: number,
  accountsPerClient: number,
  keysPerAccount: number,
  givenFaker?: unknown,
): World {
  const seed = hashSeed(seedInput);
  const faker = seededFaker(seed, givenFaker);
  const world: World = { seed, keysPerAccount, clients: [], accounts: [] };
  for (let c = 0; c < clients; c += 1) {
    const random = new Random(seed, c, 0x70c3);
    let token = 'sbx_';
    for (let i = 0; i < 4; i += 1) token += random.next().toString(HEX).padStart(8, '0');
    // A stream of their own, drawn after everything else of the client: the rest stays as it was.
    const credentials = new Random(seed, c, 0xc1d);
    const hex = (words: number) =>
      Array.from({ length: words }, () => credentials.next().toString(HEX).padStart(8, '0')).join('');
    const clientId = `sbx_client_${hex(2)}`;
    const clientSecret = `sbx_secret_${hex(4)}`;
    const accounts: SeededAccount[] = [];
    for (let a = 0; a < accountsPerClient; a += 1) {
      const r = new Random(seed, c, a, 0xacc);
      const firstName = faker.person.firstName();
      const lastName = faker.person.lastName();
      const name = `${firstName} ${lastName}`;
      const year = 2015 + r.below(10);
      const createdAt = new Date(
        Date.UTC(year, r.below(12), 1 + r.below(28), r.below(24), r.below(60), r.below(60)),
      ).toISOString();
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
          email: faker.internet
            .email({ firstName, lastName })
            .normalize('NFD')
            .replace(/[\u0300-\u036f]/g, '')
            .toLowerCase(),
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
    world.clients.push({
      token,
      clientId,
      clientSecret,
      accounts: accounts.map(({ accountId, account, documentNumber }) => ({ accountId, account, documentNumber })),
    });
  }
  return world;
}

// Statuses and holders other than the first ones: the contract allows them, so a client's code must
// meet them. Each other status the spec names (key_status examples) goes to about 3 % of the keys,
// and each other kind of holder (a branch of BeneficiaryEntity) to about 4 %, from the sixth key of an
// account on. The first five (one of each type) stay active; each is held by the customer but the
// cnpj key, which is the company's own CNPJ (the key directory's rule for document keys).
/** Per mille of the keys that get each status other than the first (the one the service shows). */
export const OTHER_STATUS_PER_MILLE = 30;
/** Per mille of the keys held by each kind of entity other than the customer (a CPF): a company. */
export const OTHER_HOLDER_PER_MILLE = 40;
const OTHER_STATUSES = KEY_STATUSES.slice(1);
// Written into a key's head as latin1 text (see `keyJson`): the contract's names are plain ASCII words.
const STATUS_JSON = KEY_STATUSES.map((status) => {
  if (!/^[a-z0-9_]+$/.test(status)) throw new Error(`sandbox: key_status example "${status}" is not a lower-case word`);
  return JSON.stringify(status);
});
/**
 * Per mille of the companies (CNPJ holders, and so their CNPJ keys) whose CNPJ is alphanumeric, as the
 * Receita Federal issues them since July 2026 (IN RFB nº 2.229/2024); the others are numeric.
 */
export const ALPHANUMERIC_CNPJ_PER_MILLE = 250;
/** A holder's document of each kind the contract allows; the customer's own kind is a CPF. */
const DOCUMENTS: Record<string, (random: Random, recent: boolean) => string> = { cpf, cnpj };
const CUSTOMER_KIND = 'cpf';
const OTHER_KINDS = DOCUMENT_TYPES.filter((kind) => kind !== CUSTOMER_KIND);
for (const kind of OTHER_KINDS)
  if (!DOCUMENTS[kind]) throw new Error(`sandbox: no document for the holder kind "${kind}" of the contract`);
const COMPANY_KINDS = ['Comércio', 'Serviços', 'Tecnologia', 'Consultoria', 'Distribuidora', 'Transportes'] as const;

interface KeyValue {
  id: string;
  key: string;
  keyType: (typeof KEY_TYPES)[number];
  /** Index into KEY_STATUSES. */
  status: number;
  /** 0: the customer; 1 + i: an entity of kind OTHER_KINDS[i]. */
  holder: number;
}

/**
 * The holder of a document key (type `cpf` or `cnpj`): the account's holder of that kind, whose own
 * document the key is. The key directory registers a CPF key only for that CPF's owner, and a CNPJ key
 * only for that CNPJ's owner, a legal entity. Undefined for the other key types.
 */
const DOCUMENT_KEY_HOLDER: Readonly<Record<string, number>> = Object.fromEntries([
  [CUSTOMER_KIND, 0],
  ...OTHER_KINDS.map((kind, i) => [kind, 1 + i] as const),
]);

/** What every key of an account shares, worked out once per account (its name never changes). */
export interface AccountKeys {
  account: SeededAccount;
  seed: number;
  /** The local part of its e-mail keys, before the key's index. */
  emailLocal: string;
  /** Per holder (0: the customer, then one entity per other kind): the JSON of the fields that close a key's object. */
  sharedJson: string[];
  /** `sharedJson` as UTF-8, copied into every page (the holder's name may not be ASCII). */
  sharedBytes: Uint8Array[];
  /** The beneficiary entity of each holder. */
  holders: PixKey['beneficiary_entity'][];
}

const accountKeysCache = new WeakMap<SeededAccount, AccountKeys>();

const beneficiaryAccount = (account: SeededAccount) => ({
  branch_code: account.branchCode,
  account_code: account.account,
  account_type: 'CC',
  created_at: account.createdAt,
});

/** The account's holders: the customer, then one entity of each other kind (a company of the customer's family name). */
function holdersOf(seed: number, account: SeededAccount): PixKey['beneficiary_entity'][] {
  const customer = {
    name: account.name,
    document_type: CUSTOMER_KIND,
    document: account.documentNumber,
  } as PixKey['beneficiary_entity'];
  const r = new Random(seed, account.clientIndex, account.accountIndex, 0xc0);
  const family = account.name.trim().split(/\s+/).at(-1) ?? account.name;
  // A stream of its own: the numeric documents stay what they were before alphanumeric CNPJs were served.
  const recent =
    new Random(seed, account.clientIndex, account.accountIndex, 0xa1fa).below(1000) < ALPHANUMERIC_CNPJ_PER_MILLE;
  const others = OTHER_KINDS.map(
    (kind) =>
      ({
        name: `${family} ${r.pick(COMPANY_KINDS)} Ltda`,
        document_type: kind,
        document: DOCUMENTS[kind]!(r, recent),
      }) as PixKey['beneficiary_entity'],
  );
  return [customer, ...others];
}

/** What every key of an account shares, worked out afresh (compiling keys keeps none of it: see page.ts). */
export function sharedKeyParts(world: World, account: SeededAccount): AccountKeys {
  const holders = holdersOf(world.seed, account);
  const head = `"account_id":${JSON.stringify(account.accountId)},"beneficiary_account":${JSON.stringify(beneficiaryAccount(account))},"beneficiary_entity":`;
  const sharedJson = holders.map((holder) => `${head}${JSON.stringify(holder)}}`);
  return {
    account,
    seed: world.seed,
    emailLocal: ascii(account.name),
    sharedJson,
    sharedBytes: sharedJson.map((json) => encoder.encode(json)),
    holders,
  };
}

/** `sharedKeyParts`, kept per account once asked for (by `keyAt` and `keyJson`). */
export function accountKeys(world: World, account: SeededAccount): AccountKeys {
  let found = accountKeysCache.get(account);
  // An account belongs to one world (buildWorld makes it), so its seed never changes under the cache.
  if (found === undefined) {
    found = sharedKeyParts(world, account);
    // Stryker disable next-line CallExpression: a cache; working it out again gives the same text.
    accountKeysCache.set(account, found);
  }
  return found;
}

/** Which of `count` choices a roll out of 1000 lands on, `perMille` each: 0 for none, 1 + i for choice i. */
const share = (roll: number, count: number, perMille: number): number =>
  roll < count * perMille ? 1 + Math.floor(roll / perMille) : 0;

function keyValue(shared: AccountKeys, index: number): KeyValue {
  const { account } = shared;
  const r = new Random(shared.seed, account.clientIndex, account.accountIndex, index, 0x6b);
  const first = index < KEY_TYPES.length;
  const keyType = first ? KEY_TYPES[index]! : r.pick(LATER_TYPES);
  const id = r.uuid();
  const documentHolder = DOCUMENT_KEY_HOLDER[keyType];
  if (documentHolder !== undefined)
    return { id, key: shared.holders[documentHolder]!.document, keyType, status: 0, holder: documentHolder };
  let key: string;
  switch (keyType) {
    case 'email':
      key = `${shared.emailLocal}${index}@${r.pick(EMAIL_DOMAINS)}`;
      break;
    case 'phone':
      key = `+55${r.pick(DDD)}9${r.digits(8)}`;
      break;
    default:
      key = r.uuid();
  }
  // Drawn after the key's own values, which stay what they were before statuses and holders varied.
  const status = first ? 0 : share(r.below(1000), OTHER_STATUSES.length, OTHER_STATUS_PER_MILLE);
  const holder = first ? 0 : share(r.below(1000), OTHER_KINDS.length, OTHER_HOLDER_PER_MILLE);
  return { id, key, keyType, status, holder };
}

/** Key `index` of an account: the same record every time it is asked for. */
export function keyAt(world: World, account: SeededAccount, index: number): PixKey {
  const shared = accountKeys(world, account);
  const { id, key, keyType, status, holder } = keyValue(shared, index);
  return {
    id,
    key,
    key_type: keyType,
    key_status: KEY_STATUSES[status]!,
    account_id: account.accountId,
    beneficiary_account: beneficiaryAccount(account),
    beneficiary_entity: { ...shared.holders[holder]! },
  };
}

/**
 * `JSON.stringify(keyAt(...))`, written as text: a page of new keys costs less this way
 * (`npm run bench`). Key values and statuses are ASCII digits, hex, `+`, `.`, `@`, `_` and lower-case
 * letters, which JSON needs no escape for; the shared part (with the holder's name) goes through JSON.stringify.
 */
export function keyJson(world: World, account: SeededAccount, index: number): string {
  const shared = accountKeys(world, account);
  const { head, holder } = keyHead(shared, index);
  return head + shared.sharedJson[holder]!;
}

/** The start of a key's JSON, up to its shared part (ASCII only, see `keyJson`), and which shared part follows. */
export function keyHead(shared: AccountKeys, index: number): { head: string; holder: number } {
  const { id, key, keyType, status, holder } = keyValue(shared, index);
  return { head: `{"id":"${id}","key":"${key}","key_type":"${keyType}","key_status":${STATUS_JSON[status]!},`, holder };
}
