// Requests per second of one caller, for the benchmarks that set servers side by side (bench/sandbox.ts):
// a round's loops, its warm-up, how a failure is told, and the node:http client that drives a server.
import { Agent, get as httpGet } from 'node:http';
import { described } from './failure.js';

/** Sends one request, reads its whole body and resolves its status. */
export type Send = () => Promise<number>;

export const viaFetch =
  (send: () => Promise<Response>): Send =>
  async () => {
    const response = await send();
    await response.arrayBuffer();
    return response.status;
  };

/**
 * Requests per second of `send` over `ms`, `parallel` loops at once, every body read. The first
 * failure stops every loop, and the round fails with an error naming `what` and the cause.
 */
export async function throughput(what: string, send: Send, ms: number, parallel: number): Promise<number> {
  let failed = false;
  // The round before may have kept the event loop busy (the in-process loops never yield): one turn
  // first lets this process see what the sockets and timers have to say.
  await new Promise((resolve) => setImmediate(resolve));
  const once = async () => {
    const status = await send();
    if (status !== 200) throw new Error(`status ${status}, not 200`);
  };
  try {
    for (let i = 0; i < 50; i += 1) await once();
    let done = 0;
    const end = performance.now() + ms;
    const started = performance.now();
    const loops = Array.from({ length: parallel }, async () => {
      while (!failed && performance.now() < end) {
        await once();
        done += 1;
      }
    }).map((loop) =>
      loop.catch((error: unknown) => {
        failed = true;
        throw error;
      }),
    );
    const rejected = (await Promise.allSettled(loops)).find((loop) => loop.status === 'rejected');
    if (rejected) throw rejected.reason;
    return done / ((performance.now() - started) / 1000);
  } catch (error) {
    throw new Error(`bench: ${what}: ${described(error)}`, { cause: error });
  }
}

/**
 * One round of GETs over node:http with a keep-alive agent of its own, destroyed when the round ends:
 * a load generator that costs the bench process a fraction of what Node's fetch does (~0.3–0.4 ms of
 * CPU a request on this machine under load), so that the figure is the server's throughput, not the
 * client's. Both servers get the same.
 *
 * An agent per round, not one for the whole run: between two rounds of one server the others run,
 * about 5 s, the last 2 s of them in-process loops that never yield to the event loop (no timer, no
 * I/O callback in this process). Both servers close a connection idle for 5 s (Node's keepAliveTimeout,
 * plus its 1 s buffer); a socket kept across that gap was handed out again before this process had
 * seen the server's FIN or run the agent's own idle timer, and under load (the gap past 6 s) the next
 * request failed with "socket hang up" (ECONNRESET). A connection that lives within one round cannot
 * outlast the server's window.
 */
export async function httpRound(
  what: string,
  url: string,
  headers: Record<string, string>,
  ms: number,
  sockets: number,
): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const send: Send = () =>
    new Promise<number>((resolve, reject) => {
      const request = httpGet(url, { agent, headers }, (response) => {
        response.on('data', () => undefined);
        response.once('end', () => resolve(response.statusCode ?? 0));
        response.once('error', reject);
      });
      request.once('error', reject);
    });
  try {
    return await throughput(what, send, ms, sockets);
  } finally {
    agent.destroy();
  }
}
