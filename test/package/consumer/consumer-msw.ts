// The sandbox behind msw (an optional peer), typed by msw's own `http`. Compiled apart from
// consumer.ts: msw's declarations need the DOM library, which a Node project without DOM lacks
// (consumer.ts keeps checking the package's own declarations with skipLibCheck off).
import { createBaasClient } from 'baas-pix-contract';
import { createMswHandlers, createSandbox } from 'baas-pix-contract/sandbox';
import { http, type HttpHandler } from 'msw';
import { setupServer } from 'msw/node';

const sandbox = createSandbox({ seed: 'msw', accountsPerClient: 2, keysPerAccount: 5 });
const handlers: HttpHandler[] = await createMswHandlers(sandbox, { baseUrl: 'https://sandbox.baas.example', http });
const server = setupServer(...handlers);
server.listen({ onUnhandledRequest: 'error' });
try {
  const baas = createBaasClient({
    baseUrl: 'https://sandbox.baas.example',
    token: sandbox.clients[0]!.token,
    userAgent: 'consumer/1.0',
  });
  const page = await baas.listPixKeys({ limit: 7 });
  // Without `http`: msw loaded by the package itself, the same routing.
  server.resetHandlers(...(await createMswHandlers(sandbox, { baseUrl: 'https://other.baas.example' })));
  const other = createBaasClient({
    baseUrl: 'https://other.baas.example',
    token: sandbox.clients[0]!.token,
    userAgent: 'consumer/1.0',
  });
  const keys: string[] = [];
  for await (const key of other.pixKeys({ limit: 4 })) keys.push(key.id);
  console.log(JSON.stringify({ throughMsw: page.data.length, loadedByPackage: keys.length }));
} finally {
  server.close();
}
