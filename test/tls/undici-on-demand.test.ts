// undici is an optional peer: it loads when a TLS fetch is first used, and not before: not when the
// package is imported, not for a client without `tls`, not when a client or a clientCredentials
// source with `tls` is created.
import { rootCertificates } from 'node:tls';
import { expect, it, vi } from 'vitest';

const loads = vi.hoisted(() => ({ undici: 0 }));
vi.mock('undici', async (importOriginal) => {
  loads.undici += 1;
  return importOriginal();
});

// Any certificate the secure context takes: what is checked here is when undici loads.
const tls = { ca: rootCertificates[0]! };
const page = { cursor: { next: null }, data: [] };

it('loads on the first call that sends with tls, not before', async () => {
  const { createBaasClient, clientCredentials, BaasNetworkError } = await import('../../src/index.js');
  const plain = createBaasClient({
    baseUrl: 'https://api.example.test',
    token: 'plain-token-1234',
    fetch: async () => Response.json(page),
  });
  await plain.listPixKeys();
  // Port 1 on loopback: refused at once, after undici was loaded to send.
  const withTls = createBaasClient({ baseUrl: 'https://127.0.0.1:1', token: 'tls-token-1234', tls, retry: false });
  const source = clientCredentials({
    tokenUrl: 'https://127.0.0.1:1/token',
    clientId: 'id',
    clientSecret: 'secret-value-1234',
    tls,
  });
  expect(loads.undici).toBe(0);
  try {
    await expect(withTls.listPixKeys()).rejects.toBeInstanceOf(BaasNetworkError);
    expect(loads.undici).toBe(1);
  } finally {
    await withTls.close();
    await source.close();
  }
});
