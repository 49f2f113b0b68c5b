// The benchmarks' load generator (bench/lib/throughput.ts): a round over node:http never reuses a connection
// from an earlier round (one kept across the other rounds was reused after the server had closed it,
// and `npm run bench` crashed with "socket hang up" under load), and a failed round is told by name.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { described } from '../../bench/lib/failure.js';
import { httpRound } from '../../bench/lib/throughput.js';

let server: Server | undefined;

async function serve(handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  server = createServer(handle);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

describe('a round over node:http', () => {
  it('serves every request of a round on connections of its own, none of them used by the round before', async () => {
    // Which connections served each round's requests, seen by the server.
    const rounds: Set<Socket>[] = [];
    const url = await serve((request, response) => {
      rounds.at(-1)!.add(request.socket);
      response.end('{}');
    });
    for (let round = 0; round < 3; round += 1) {
      rounds.push(new Set());
      await httpRound(`round ${round}`, url, {}, 20, 2);
    }
    for (const [i, sockets] of rounds.entries()) {
      expect(sockets.size, `round ${i}`).toBeGreaterThan(0);
      for (const earlier of rounds.slice(0, i))
        expect(
          [...sockets].filter((socket) => earlier.has(socket)),
          `round ${i}`,
        ).toEqual([]);
    }
  });

  it('fails, naming the caller and the cause, when the server drops a connection mid-round', async () => {
    let requests = 0;
    const url = await serve((request, response) => {
      requests += 1;
      if (requests === 60) request.socket.destroy();
      else response.end('{}');
    });
    const failure = await httpRound('the dropping server', url, {}, 60_000, 2).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error).message)).toContain('the dropping server');
    expect(String((failure as Error).message)).toContain('ECONNRESET');
    // Its loops stopped: the round did not run on for its 60 s.
    expect(requests).toBeLessThan(100);
  });

  it('fails naming the status when an answer is not a 200', async () => {
    const url = await serve((_request, response) => {
      response.statusCode = 503;
      response.end('{}');
    });
    const failure = await httpRound('the busy server', url, {}, 60_000, 2).catch((error: unknown) => error);
    expect((failure as Error).message).toContain('the busy server');
    expect((failure as Error).message).toContain('503');
  });
});

describe('how a failure is told', () => {
  it("gives Node's error code and each cause once", () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const text = described(new Error('bench: Prism over node:http: socket hang up (ECONNRESET)', { cause: reset }));
    expect(text.match(/socket hang up/g)).toHaveLength(1);
    expect(described(reset)).toContain('ECONNRESET');
    expect(described(new Error('the sandbox process exited', { cause: new Error('EADDRINUSE') }))).toContain(
      'EADDRINUSE',
    );
  });
});
