// Uma página de chaves PIX por vez, e a próxima a partir do seu cursor.
import { createBaasClient } from 'baas-pix-contract';
import { serviceFromEnv } from './support/service.js';

const service = serviceFromEnv();
console.error(`Calling ${service.description}`);
const baas = createBaasClient({ ...service.client, userAgent: 'examples/1.0' });

const first = await baas.listPixKeys({ limit: 3 });
for (const key of first.data) console.log(key.key_type, key.key_status, key.id);
// cursor.next é opaco; null na última página.
if (first.cursor.next !== null) {
  const second = await baas.listPixKeys({ limit: 3, cursor: first.cursor.next });
  console.log(`next page: ${second.data.length} keys, last page: ${second.cursor.next === null}`);
}
