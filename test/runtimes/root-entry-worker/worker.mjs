// A Worker that imports only the package's root entry and checks every answer against the contract
// (validateResponses: 'throw' loads the response validators' chunk inside the Worker). POST the sandbox's
// URL and token; it answers with what it saw. Bundled with the installed package by the test, as wrangler would.
import { createBaasClient, isValidCpf } from 'baas-pix-contract';

export default {
  async fetch(request) {
    try {
      const { baseUrl, token } = await request.json();
      const baas = createBaasClient({ baseUrl, token, validateResponses: 'throw', userAgent: 'root-entry-worker/1.0' });
      const page = await baas.listPixKeys({ limit: 3 });
      return Response.json({ keys: page.data.length, writtenCpf: isValidCpf('529.982.247-25') });
    } catch (error) {
      return Response.json({ failed: `${error?.name}: ${error?.message}\n${error?.stack}` }, { status: 500 });
    }
  },
};
