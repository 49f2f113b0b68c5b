// Um RequestLimiter que vários processos dividem: o rate-limiter-flexible guarda a contagem no Redis,
// então todo worker de um cliente da API tira dos mesmos pontos.
import type { RequestLimiter } from 'baas-pix-contract';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';

// O Node dispara na hora um timer mais longo (depois de um aviso): nunca arme um além disto.
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * `take()` consome um ponto de `key` (uma chave por cliente da API: o provedor conta por cliente).
 * Recusado, espera o `msBeforeNext` que o rate-limiter-flexible dá e tenta de novo. O sinal encerra
 * a espera com o motivo do sinal. Um erro do armazenamento (Redis fora) rejeita: não é motivo para esperar.
 */
export function sharedLimiter(limiter: Pick<RateLimiterAbstract, 'consume'>, key: string): RequestLimiter {
  return {
    async take(signal) {
      for (;;) {
        signal?.throwIfAborted();
        const refused = await limiter.consume(key, 1).then(
          () => undefined,
          (error: unknown) => {
            if (error instanceof RateLimiterRes) return error;
            throw error;
          },
        );
        // Abortado enquanto o Redis respondia: o ponto foi gasto, mas quem chamou não o quer mais.
        signal?.throwIfAborted();
        if (refused === undefined) return;
        await wait(Math.max(refused.msBeforeNext, 1), signal);
      }
    },
  };
}

/** Resolve depois de `ms` (no máximo LONGEST_TIMER_MS), ou rejeita com o motivo do sinal; não deixa timer nem listener. */
function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.min(ms, LONGEST_TIMER_MS));
    function onAbort() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
