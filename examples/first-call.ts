// first-call.ts
import { clientCredentials, createBaasClient } from 'baas-pix-contract';
import { createSandbox } from 'baas-pix-contract/sandbox';

// A service `npx baas-pix-contract sandbox` (or your provider) gives you: BAAS_BASE_URL with BAAS_TOKEN,
// or with BAAS_TOKEN_URL, BAAS_CLIENT_ID and BAAS_CLIENT_SECRET. Without them, a sandbox in this process.
const { BAAS_BASE_URL, BAAS_TOKEN, BAAS_TOKEN_URL, BAAS_CLIENT_ID, BAAS_CLIENT_SECRET } = process.env;
const credentials = { BAAS_TOKEN_URL, BAAS_CLIENT_ID, BAAS_CLIENT_SECRET };
const missing = Object.keys(credentials).filter((name) => !credentials[name as keyof typeof credentials]);
if (BAAS_BASE_URL && !BAAS_TOKEN && missing.length > 0) {
  console.error(`BAAS_BASE_URL is set but no credentials are: set BAAS_TOKEN, or ${missing.join(', ')}.`);
  process.exit(2);
}
const sandbox = BAAS_BASE_URL ? undefined : createSandbox();
const baas = createBaasClient({
  baseUrl: BAAS_BASE_URL ?? 'https://sandbox.baas.test',
  token: BAAS_TOKEN ?? sandbox?.clients[0]!.token ?? clientCredentials({ tokenUrl: BAAS_TOKEN_URL!, clientId: BAAS_CLIENT_ID!, clientSecret: BAAS_CLIENT_SECRET! }),
  ...(sandbox && { fetch: sandbox.fetch }),
});

const page = await baas.listPixKeys({ limit: 5 });
for (const key of page.data) console.log(key.key_type, key.key_status, key.beneficiary_entity.name);
