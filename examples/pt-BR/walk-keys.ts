// Todas as chaves que o token pode ver, uma página na memória por vez.
import { createBaasClient } from 'baas-pix-contract';
import { serviceFromEnv } from './support/service.js';

const service = serviceFromEnv();
console.error(`Calling ${service.description}`);
const baas = createBaasClient({ ...service.client, userAgent: 'examples/1.0' });

const byType = new Map<string, number>();
// pixKeys() segue cursor.next até ele ser null, e para com um BaasResponseError num cursor repetido
// em vez de entrar em laço; maxPages limita o percurso.
for await (const key of baas.pixKeys({ limit: 200, maxPages: 50 })) {
  byType.set(key.key_type, (byType.get(key.key_type) ?? 0) + 1);
}
console.log(Object.fromEntries(byType));
