// The request log is what a client of `sandbox`, `mock` and `docs --serve` reaches: it holds the
// sandbox's bounds on connections (src/sandbox/listen.ts connectionBounds), so idle connections past
// the cap are closed at once instead of denying the server to real clients (1,100 idle connections
// under a 1,024-descriptor limit did, through Node's defaults: no cap, a minute's head timeout).
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRequestLog, type RequestLog } from '../../src/cli/request-log.js';
import { connectionBounds, SANDBOX_HEADERS_TIMEOUT_MS, SANDBOX_MAX_CONNECTIONS } from '../../src/sandbox/listen.js';
import { startFaultServer, type FaultServer } from '../support/fault-server.js';
import { until } from './in-process.js';

let upstream: FaultServer;
let front: RequestLog;
beforeAll(async () => {
  upstream = await startFaultServer();
  front = await startRequestLog({ target: upstream.url, host: '127.0.0.1', port: 0, log: () => undefined });
});
afterAll(async () => {
  await front?.stop();
  await upstream?.close();
});

describe("the request log's connections", () => {
  it('past the cap, an idle connection is closed at once', async () => {
    const sockets: Socket[] = [];
    let closed = 0;
    try {
      for (let i = 0; i < SANDBOX_MAX_CONNECTIONS + 20; i++) {
        const socket = connect(front.port, '127.0.0.1');
        socket.on('error', () => undefined);
        socket.on('close', () => (closed += 1));
        socket.resume();
        sockets.push(socket);
      }
      await until(() => closed >= 20);
      // Those past the cap went at once, the rest are held (until the head timeout): without a cap every
      // one stays until that timeout closes them all together.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(closed).toBe(20);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });

  it("Node's timeouts are the sandbox's: a late head is cut after seconds, not a minute", () => {
    expect(connectionBounds()).toEqual({
      headersTimeout: SANDBOX_HEADERS_TIMEOUT_MS,
      requestTimeout: SANDBOX_HEADERS_TIMEOUT_MS * 3,
      connectionsCheckingInterval: 1_000,
      keepAliveTimeout: 5_000,
    });
  });
});
