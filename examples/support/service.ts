// Which service the examples call, from the environment, in one place:
// - BAAS_BASE_URL with BAAS_TOKEN: that service with that bearer token;
// - BAAS_BASE_URL with BAAS_TOKEN_URL, BAAS_CLIENT_ID and BAAS_CLIENT_SECRET: that service with OAuth2
//   client credentials (`npx baas-pix-contract sandbox` prints all of them);
// - nothing: a sandbox in this process (`fetch: sandbox.fetch`), no socket, same data every run.
// The customer an example acts on is BAAS_ACCOUNT and BAAS_DOCUMENT_NUMBER when both are given, else
// the first customer the service lists: a PIX key's `beneficiary_account.account_code` and, when the key's
// holder is a person, its `beneficiary_entity.document` (the CPF).
import { clientCredentials, type BaasClient, type BaasClientOptions, type ClientCredentialsOptions, type FetchLike } from 'baas-pix-contract';
import { createSandbox, type Sandbox } from 'baas-pix-contract/sandbox';

export interface Customer {
  account: string;
  documentNumber: string;
}

export interface Service {
  /** Spread into `createBaasClient`: `baseUrl`, `token`, and `fetch` for the sandbox in process. */
  client: Pick<BaasClientOptions, 'baseUrl' | 'token' | 'fetch'>;
  /** The client credentials to try: the environment's, or the in-process sandbox's first client. Absent with BAAS_TOKEN. */
  credentials?: Pick<ClientCredentialsOptions, 'tokenUrl' | 'clientId' | 'clientSecret'> & { fetch?: FetchLike };
  /** The sandbox in this process, when no service was named. */
  sandbox?: Sandbox;
  /** Where the calls go, for a first line of output (never a secret). */
  description: string;
}

const IN_PROCESS_URL = 'https://sandbox.baas.test';

export function serviceFromEnv(env: NodeJS.ProcessEnv = process.env): Service {
  const { BAAS_BASE_URL: baseUrl, BAAS_TOKEN: token, BAAS_TOKEN_URL: tokenUrl, BAAS_CLIENT_ID: clientId, BAAS_CLIENT_SECRET: clientSecret } = env;
  if (baseUrl) {
    if (token) return { client: { baseUrl, token }, description: `${baseUrl} with a bearer token (BAAS_TOKEN)` };
    if (tokenUrl && clientId && clientSecret) {
      const credentials = { tokenUrl, clientId, clientSecret };
      return { client: { baseUrl, token: clientCredentials(credentials) }, credentials, description: `${baseUrl} with client credentials (BAAS_CLIENT_ID ${clientId})` };
    }
    const missing = Object.entries({ BAAS_TOKEN_URL: tokenUrl, BAAS_CLIENT_ID: clientId, BAAS_CLIENT_SECRET: clientSecret }).filter(([, value]) => !value).map(([name]) => name);
    console.error(`BAAS_BASE_URL is set but no credentials are: set BAAS_TOKEN, or ${missing.join(', ')} (\`npx baas-pix-contract sandbox\` prints them).`);
    process.exit(2);
  }
  const sandbox = createSandbox({ seed: 'examples' });
  const me = sandbox.clients[0]!;
  return {
    client: { baseUrl: IN_PROCESS_URL, token: me.token, fetch: sandbox.fetch },
    credentials: { tokenUrl: `${IN_PROCESS_URL}/oauth/token`, clientId: me.clientId, clientSecret: me.clientSecret, fetch: sandbox.fetch },
    sandbox,
    description: 'a sandbox in this process (set BAAS_BASE_URL and BAAS_TOKEN to call a service)',
  };
}

/** BAAS_ACCOUNT and BAAS_DOCUMENT_NUMBER, or the first customer (a person) whose keys the service lists. */
export async function firstCustomer(baas: BaasClient, env: NodeJS.ProcessEnv = process.env): Promise<Customer> {
  if (env.BAAS_ACCOUNT && env.BAAS_DOCUMENT_NUMBER) return { account: env.BAAS_ACCOUNT, documentNumber: env.BAAS_DOCUMENT_NUMBER };
  for await (const key of baas.pixKeys({ limit: 50, maxPages: 4 })) {
    if (key.beneficiary_entity.document_type === 'cpf') return { account: key.beneficiary_account.account_code, documentNumber: key.beneficiary_entity.document };
  }
  throw new Error('the service lists no key held by a person: set BAAS_ACCOUNT and BAAS_DOCUMENT_NUMBER');
}

