// The consumer as a Cloudflare Worker: POST the setup as JSON, get back what it saw. Bundled with the
// installed package into one module by the test (esbuild), as wrangler would.
import { consume } from './consume.mjs';

export default {
  async fetch(request) {
    try {
      const result = await consume(await request.json());
      return Response.json({ runtime: 'workerd', result });
    } catch (error) {
      return Response.json({ failed: `${error?.name}: ${error?.message}\n${error?.stack}` }, { status: 500 });
    }
  },
};
