// Every key the token may see, one page in memory at a time.
import { createBaasClient } from 'baas-pix-contract';
import { serviceFromEnv } from './support/service.js';

const service = serviceFromEnv();
console.error(`Calling ${service.description}`);
const baas = createBaasClient({ ...service.client, userAgent: 'examples/1.0' });

const byType = new Map<string, number>();
// pixKeys() follows cursor.next until it is null, and stops with a BaasResponseError on a repeated cursor
// rather than looping; maxPages bounds the walk.
for await (const key of baas.pixKeys({ limit: 200, maxPages: 50 })) {
  byType.set(key.key_type, (byType.get(key.key_type) ?? 0) + 1);
}
console.log(Object.fromEntries(byType));
