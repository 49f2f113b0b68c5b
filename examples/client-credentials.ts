// OAuth2 client credentials: a token source that fetches, caches and renews the bearer token.
import { clientCredentials, createBaasClient } from 'baas-pix-contract';
import { serviceFromEnv } from './support/service.js';

const service = serviceFromEnv();
console.error(`Calling ${service.description}`);
if (!service.credentials) console.error('BAAS_TOKEN is set: to fetch tokens instead, set BAAS_TOKEN_URL, BAAS_CLIENT_ID and BAAS_CLIENT_SECRET.');

// Cached until expires_in minus 60 s; concurrent calls share one token request; a 401 drops the
// token and the call is sent once more with a new one.
const source = service.credentials && clientCredentials({ ...service.credentials, authMethod: 'client_secret_basic' });
const baas = createBaasClient({ ...service.client, token: source ?? service.client.token!, userAgent: 'examples/1.0' });
let tokenRequests = 0;
baas.on('token', (event) => {
  if (event.action === 'fetched') tokenRequests += 1;
  console.log(`token ${event.action}, expires in ${event.expiresInSeconds ?? '?'} s`);
});

try {
  const [a, b] = await Promise.all([baas.listPixKeys({ limit: 2 }), baas.listPixKeys({ limit: 2 })]);
  // Counted from the token events: none when BAAS_TOKEN gave the token.
  const requests = tokenRequests === 1 ? '1 token request' : `${tokenRequests} token requests`;
  console.log(`two pages, ${a.data.length + b.data.length} keys, ${requests}`);
} finally {
  await source?.close();
}
