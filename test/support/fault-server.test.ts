// The shared fault server never hands a late request from one test to the next (fault-server.ts): a
// request written before `handle()` by a client that then gave up is dropped; a connection of an
// earlier test that a client keeps and reuses still counts.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultServer, type FaultServer } from './fault-server.js';

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());

const request = (path: string) => `GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`;

function open(): Promise<Socket> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => resolve(socket)).once('error', reject);
  });
}

/** Resolves with the first answer's status line on `socket`. */
const statusLine = (socket: Socket): Promise<string> =>
  new Promise((resolve) => socket.once('data', (chunk) => resolve(String(chunk).split('\r\n')[0]!)));

describe('the fault server', () => {
  it('drops a request the previous test abandoned, read only after the next handle()', async () => {
    server.handle((_req, res) => res.writeHead(200).end());
    const abandoned = await open();
    // Written and given up on in one turn: this process's server reads it only after the handle() below.
    abandoned.end(request('/earlier-test'));
    server.handle((_req, res) => res.writeHead(204).end());
    const current = await open();
    current.write(request('/this-test'));
    expect(await statusLine(current)).toBe('HTTP/1.1 204 No Content');
    current.destroy();
    expect(server.requests.map((r) => r.url)).toEqual(['/this-test']);
  });

  it("counts a request on an earlier test's connection that its client still holds", async () => {
    server.handle((_req, res) => res.writeHead(200).end());
    const kept = await open();
    server.handle((_req, res) => res.writeHead(204).end());
    kept.write(request('/reused'));
    expect(await statusLine(kept)).toBe('HTTP/1.1 204 No Content');
    kept.destroy();
    expect(server.requests.map((r) => r.url)).toEqual(['/reused']);
  });
});
