// A real HTTPS server on 127.0.0.1 that requires a client certificate, with certificates made by openssl
// for it (test/support/certs.ts), started before a file's tests and stopped after them, with every client
// the tests made closed first. The fixture of the mTLS tests, in one place.
import { afterAll, beforeAll } from 'vitest';
import { makeTestCerts, type TestCerts } from './certs.js';
import { startHttpsServer, type TestHttpsServer } from './https-server.js';

export interface MtlsServer {
  /** The certificates (read after the file's beforeAll). */
  readonly certs: TestCerts;
  /** The server that asks for and checks a client certificate. */
  readonly server: TestHttpsServer;
  /** Clients to close after the file's tests (push each one made). */
  readonly clients: { close(): Promise<void> }[];
}

/** Registers the file's hooks; the fields are there from its beforeAll on. */
export function mtlsServer(): MtlsServer {
  let certs: TestCerts | undefined;
  let server: TestHttpsServer | undefined;
  const clients: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    certs = await makeTestCerts();
    server = await startHttpsServer({ ...certs.server, ca: certs.ca, requireClientCert: true });
  });
  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await server?.close();
    await certs?.remove();
  });
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`mtlsServer: ${what} is there only from the file's beforeAll on`);
    return value;
  };
  return {
    get certs() {
      return ready(certs, 'certs');
    },
    get server() {
      return ready(server, 'server');
    },
    clients,
  };
}
