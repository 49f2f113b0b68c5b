// Atualiza muitos clientes: cada pessoa que as chaves PIX da conta nomeiam, no ritmo certo, com retries, e parado sem perdas pelo Ctrl-C.
import { createBaasClient, exportKeys, updateMany, type UpdateItem } from 'baas-pix-contract';
import { serviceFromEnv } from './support/service.js';

const service = serviceFromEnv();
console.error(`Calling ${service.description}`);
const baas = createBaasClient({ ...service.client, userAgent: 'examples/1.0' });

// A entrada é lida aos poucos: updateMany puxa o próximo cliente só quando há vaga para uma requisição.
async function* customers(): AsyncGenerator<UpdateItem> {
  const seen = new Set<string>();
  for await (const key of exportKeys(baas, { limit: 100, rate: 10 })) {
    const { account_code: account } = key.beneficiary_account;
    const { document, document_type } = key.beneficiary_entity;
    if (document_type !== 'cpf' || seen.has(account)) continue;
    seen.add(account);
    yield { account, documentNumber: document, body: { isPoliticallyExposedPerson: false } };
  }
}

// Ctrl-C: nada novo é puxado nem enviado, e as requisições já enviadas terminam e são relatadas.
const stop = new AbortController();
process.once('SIGINT', () => stop.abort());

const run = updateMany(baas, customers(), { concurrency: 4, rate: 20, signal: stop.signal });
// Os resultados vêm na ordem em que terminam; `index` é a posição do item na entrada.
for await (const result of run) {
  if (result.ok) console.log(`#${result.index} updated: ${result.result?.status ?? 'no body'}`);
  else console.log(`#${result.index} failed: ${result.error.kind}: ${result.error.message}`);
}
const { ok, failed, requests, peakConcurrency, discoveredLimit } = await run;
console.log({ ok, failed, requests, peakConcurrency, discoveredLimit });
