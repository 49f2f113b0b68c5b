// MSW request handlers that route to a sandbox; msw (2.x) is an optional peer, loaded only here.
import type { Sandbox } from './sandbox.js';

export interface MswHandlerOptions {
  /** The base URL your client calls, e.g. `https://sandbox.baas.example`. */
  baseUrl: string;
}

export async function createMswHandlers(sandbox: Sandbox, options: MswHandlerOptions): Promise<import('msw').RequestHandler[]> {
  let msw: typeof import('msw');
  try {
    msw = await import('msw');
  } catch (error) {
    throw new Error('createMswHandlers needs msw 2: install it with `npm install --save-dev msw@^2`.', { cause: error });
  }
  const base = options.baseUrl.replace(/\/$/, '');
  const route = async ({ request }: { request: Request }): Promise<Response> => {
    try {
      return await sandbox.fetch(request);
    } catch {
      return msw.HttpResponse.error();
    }
  };
  return [msw.http.all(`${base}/v2/api/*`, route)];
}
