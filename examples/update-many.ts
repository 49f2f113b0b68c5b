// Update many customers: every person the account's PIX keys name, paced, retried, and stopped cleanly by Ctrl-C.
import { createBaasClient, exportKeys, updateMany, type UpdateItem } from 'baas-pix-contract';
import { serviceFromEnv } from './support/service.js';

const service = serviceFromEnv();
console.error(`Calling ${service.description}`);
const baas = createBaasClient({ ...service.client, userAgent: 'examples/1.0' });

// The input is read lazily: updateMany pulls the next customer only when a request slot is free.
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

// Ctrl-C: nothing new is pulled or sent, and the requests already sent finish and are reported.
const stop = new AbortController();
process.once('SIGINT', () => stop.abort());

const run = updateMany(baas, customers(), { concurrency: 4, rate: 20, signal: stop.signal });
// Results come in completion order; `index` is the item's position in the input.
for await (const result of run) {
  if (result.ok) console.log(`#${result.index} updated: ${result.result?.status ?? 'no body'}`);
  else console.log(`#${result.index} failed: ${result.error.kind}: ${result.error.message}`);
}
const { ok, failed, requests, peakConcurrency, discoveredLimit } = await run;
console.log({ ok, failed, requests, peakConcurrency, discoveredLimit });
