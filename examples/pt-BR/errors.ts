// Cada tipo de erro, provocado de verdade. Uma classe base, BaasError; diferencie-os com instanceof ou `kind`.
import { BaasApiError, BaasAuthError, BaasError, BaasNetworkError, BaasResponseError, BaasTimeoutError, BaasValidationError, createBaasClient } from 'baas-pix-contract';
import { createSandbox } from 'baas-pix-contract/sandbox';
import { firstCustomer, serviceFromEnv } from './support/service.js';

const service = serviceFromEnv();
console.error(`Calling ${service.description}`);
const baas = createBaasClient({ ...service.client, userAgent: 'examples/1.0' });

/** O que cada tipo traz; todo BaasError também tem `operation`, `attempts` (0: nada foi enviado) e `requestId`. */
function explain(error: unknown): string {
  if (error instanceof BaasValidationError) return `BaasValidationError: ${error.issues.map((issue) => issue.path).join(', ')} (nothing sent)`;
  if (error instanceof BaasAuthError) return `BaasAuthError: ${error.message}`;
  if (error instanceof BaasApiError) return `BaasApiError: HTTP ${error.status} ${error.problem?.title ?? ''} (request id ${error.requestId ?? 'none'})`;
  if (error instanceof BaasTimeoutError) return `BaasTimeoutError: no answer within ${error.timeoutMs} ms, ${error.attempts} attempt(s)`;
  if (error instanceof BaasNetworkError) return `BaasNetworkError: ${error.code ?? error.reason}`;
  if (error instanceof BaasResponseError) return `BaasResponseError: HTTP ${error.status}, not the contract (${error.contentType ?? 'no content type'})`;
  throw error; // não é nosso: p. ex. o motivo do seu próprio AbortSignal
}

async function show(what: string, call: () => Promise<unknown>): Promise<void> {
  const error = await call().then(() => undefined, (caught: unknown) => caught);
  if (!(error instanceof BaasError)) throw new Error(`${what}: expected a BaasError, got ${String(error)}`);
  console.log(`${what} -> ${explain(error)}`);
}

const { account, documentNumber } = await firstCustomer(baas);
// Contra o serviço: entrada inválida é recusada antes do envio; um token que ele não conhece recebe 401.
await show('a phone number without its country code', () => baas.updateNaturalPerson({ account, documentNumber, body: { phoneNumber: '11987654321' } }));
await show('a token function that fails', () => createBaasClient({ ...service.client, token: () => Promise.reject(new Error('vault unreachable')) }).listPixKeys());
await show('a token the service does not know', () => createBaasClient({ ...service.client, token: 'not-a-valid-token' }).listPixKeys());

// Um provedor não falha quando pedimos; um sandbox neste processo falha, com falhas injetadas.
const faulty = createSandbox({ seed: 'errors' });
const flaky = createBaasClient({ baseUrl: 'https://sandbox.baas.test', token: faulty.clients[0]!.token, fetch: faulty.fetch, retry: false });
faulty.inject({ operation: 'listPixKeys', delayMs: 500 });
await show('a server slower than timeoutMs', () => flaky.listPixKeys({ timeoutMs: 50 }));
faulty.inject({ operation: 'listPixKeys', drop: true });
await show('a connection dropped without an answer', () => flaky.listPixKeys());
faulty.inject({ operation: 'listPixKeys', status: 200, body: '<html>Gateway login</html>', headers: { 'content-type': 'text/html' } });
await show('an HTML page instead of JSON', () => flaky.listPixKeys());
faulty.inject({ operation: 'listPixKeys', status: 503, headers: { 'retry-after': '1' } });
await show('a 503 with retries off', () => flaky.listPixKeys());
