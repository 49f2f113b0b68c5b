// One of several workers that update customers for the same API client: start as many as you like,
// each on its own share of the input. They take their requests from one limit kept in Redis, so
// together they stay under the provider's limit for the client.
// Run: REDIS_URL=redis://127.0.0.1:6379 BAAS_BASE_URL=… BAAS_TOKEN=… npx tsx examples/shared-limit/worker.ts FILE
// where FILE holds one {"account","documentNumber","body"} per line.
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

// No offline queue: with Redis unreachable, take() rejects at once instead of queueing forever.
const redis = new Redis(REDIS_URL, { enableOfflineQueue: false, lazyConnect: true });
await redis.connect();

// The provider allows 20 requests per second per client. rate-limiter-flexible counts in fixed
// windows, which do not line up with the provider's: give each window a second's worth of points
// and make it two seconds long, so that two windows' worth never reach the provider within one second.
const limit = new RateLimiterRedis({ storeClient: redis, keyPrefix: 'baas-pix', points: 20, duration: 2 });
// Every worker of one API client uses the same key; another client, another key.
const limiter = sharedLimiter(limit, 'client-1');

// Read as the work goes: updateMany pulls the next item only when it has room for it.
async function* lines(path: string): AsyncGenerator<UpdateItem> {
  for await (const line of createInterface({ input: createReadStream(path) }))
    if (line.trim()) yield JSON.parse(line) as UpdateItem;
}

const baas = createBaasClient({ baseUrl: BAAS_BASE_URL, token: BAAS_TOKEN, userAgent: 'shared-limit-worker/1.0' });
let ok = 0;
let failed = 0;
// Alone, 16 in flight would go well past the limit: the shared limiter paces them.
for await (const result of updateMany(baas, lines(input), { concurrency: 16, limiter })) {
  if (result.ok) ok++;
  else {
    failed++;
    console.error(`item ${result.index}: ${result.error.kind}`); // the kind, never the item: it holds a CPF
  }
}
redis.disconnect();
console.log(JSON.stringify({ ok, failed }));
