// Um de vários workers que atualizam clientes do mesmo cliente da API: inicie quantos quiser,
// cada um com a sua parte da entrada. Eles tiram as requisições de um limite guardado no Redis, então
// juntos ficam abaixo do limite do provedor para o cliente.
// Rode: REDIS_URL=redis://127.0.0.1:6379 BAAS_BASE_URL=… BAAS_TOKEN=… npx tsx examples/shared-limit/worker.ts FILE
// onde FILE tem um {"account","documentNumber","body"} por linha.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createBaasClient, type UpdateItem, updateMany } from 'baas-pix-contract';
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { sharedLimiter } from './limiter.js';

const { REDIS_URL, BAAS_BASE_URL, BAAS_TOKEN } = process.env;
const input = process.argv[2];
if (!REDIS_URL || !BAAS_BASE_URL || !BAAS_TOKEN || !input)
  throw new Error('usage: REDIS_URL=… BAAS_BASE_URL=… BAAS_TOKEN=… worker.ts FILE.jsonl');

// Sem fila offline: com o Redis inacessível, take() rejeita na hora em vez de enfileirar para sempre.
const redis = new Redis(REDIS_URL, { enableOfflineQueue: false, lazyConnect: true });
await redis.connect();

// O provedor permite 20 requisições por segundo por cliente. O rate-limiter-flexible conta em janelas
// fixas, que não se alinham com as do provedor: dê a cada janela os pontos de um segundo e faça-a
// durar dois segundos, para que o de duas janelas nunca chegue ao provedor dentro de um segundo.
const limit = new RateLimiterRedis({ storeClient: redis, keyPrefix: 'baas-pix', points: 20, duration: 2 });
// Todo worker de um cliente da API usa a mesma chave; outro cliente, outra chave.
const limiter = sharedLimiter(limit, 'client-1');

// Lido conforme o trabalho anda: updateMany puxa o próximo item só quando tem espaço para ele.
async function* lines(path: string): AsyncGenerator<UpdateItem> {
  for await (const line of createInterface({ input: createReadStream(path) }))
    if (line.trim()) yield JSON.parse(line) as UpdateItem;
}

const baas = createBaasClient({ baseUrl: BAAS_BASE_URL, token: BAAS_TOKEN, userAgent: 'shared-limit-worker/1.0' });
let ok = 0;
let failed = 0;
// Sozinhas, 16 em voo passariam muito do limite: o limitador compartilhado dá o ritmo.
for await (const result of updateMany(baas, lines(input), { concurrency: 16, limiter })) {
  if (result.ok) ok++;
  else {
    failed++;
    console.error(`item ${result.index}: ${result.error.kind}`); // o tipo, nunca o item: ele tem um CPF
  }
}
redis.disconnect();
console.log(JSON.stringify({ ok, failed }));
