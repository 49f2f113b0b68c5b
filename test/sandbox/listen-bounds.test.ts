// The sandbox as a server facing a hostile client: idle connections and late request heads are closed
// (headersTimeoutMs), and no more than maxConnections are held at once. Real sockets on 127.0.0.1; no
// assertion on elapsed time, only on what the server does.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type RunningSandbox } from '../../src/sandbox/index.js';

let running: RunningSandbox | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await running?.stop();
  running = undefined;
});

const open = (port: number): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    sockets.push(socket);
    socket.once('error', reject);
  });
/** What the server did to an idle socket: closed it, and what it wrote first. */
const closedBy = (socket: Socket): Promise<string> =>
  new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(text));
  });

describe('sandbox.listen() bounds', () => {
  it('closes a connection that sends nothing, and one that trickles a request head', async () => {
    running = await createSandbox().listen({ headersTimeoutMs: 300 });
    const idle = await open(running.port);
    const trickling = await open(running.port);
    trickling.write('GET /v2/api/pix/keys/list-keys HTTP/1.1\r\nHost: x\r\n');
    const [idleText, tricklingText] = await Promise.all([closedBy(idle), closedBy(trickling)]);
    expect(idleText === '' || idleText.startsWith('HTTP/1.1 408')).toBe(true);
    expect(tricklingText === '' || tricklingText.startsWith('HTTP/1.1 408')).toBe(true);
  });

  it('holds at most maxConnections: one more is closed at once, and a slot freed serves again', async () => {
    running = await createSandbox().listen({ maxConnections: 2 });
    const held = [await open(running.port), await open(running.port)];
    const extra = await open(running.port);
    expect(await closedBy(extra)).toBe('');
    held[0]!.destroy();
    // Node counts the freed slot once it has seen the close: retried until it has, on its own terms.
    let status = 0;
    for (let i = 0; i < 50 && status === 0; i += 1) {
      status = await fetch(`${running.url}/v2/api/pix/keys/list-keys`, { headers: { connection: 'close' } }).then(
        (r) => r.status,
        () => 0,
      );
    }
    expect(status).toBe(401);
  });

  it('refuses bounds that are not counts, naming the option', async () => {
    const sandbox = createSandbox();
    await expect(sandbox.listen({ headersTimeoutMs: 0 })).rejects.toThrow(/headersTimeoutMs must be a whole number/);
    await expect(sandbox.listen({ maxConnections: 1.5 })).rejects.toThrow(/maxConnections must be a whole number/);
  });
});
