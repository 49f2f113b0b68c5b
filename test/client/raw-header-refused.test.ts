// `client.raw` with a header value fetch cannot send (a long dash pasted from a document): openapi-fetch
// throws fetch's bare TypeError ("Cannot convert argument to a ByteString") while it builds the request,
// before the transport sees it. The raw client gives the same BaasValidationError as the typed operations
// (the transport's HeaderRefused), naming the header, never its value, and nothing is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBaasClient } from '../../src/index.js';
import { type FaultServer, startFaultServer } from '../support/fault-server.js';

const LIST = '/v2/api/pix/keys/list-keys';
const VALUE = 'caf\u2014e-secret-note';
let server: FaultServer;
let url: string;
/** The requests the server has received (the fault server counts them). */
const requests = () => server.requests.length;

beforeAll(async () => {
  server = await startFaultServer();
  server.handle((_request, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"cursor":{"next":null},"data":[]}'),
  );
  url = server.url;
});
afterAll(() => server?.close());

const RULE =
  'has a value with a character an HTTP header cannot carry (a line break, a NUL, or one past U+00FF such as a curly quote, a long dash or an emoji)';

describe('client.raw: a header fetch cannot send', () => {
  const baas = () => createBaasClient({ baseUrl: url, token: 'sbx_raw_token_0123456789' });
  const refusal = async (send: () => Promise<unknown>) => {
    const before = requests();
    const error = (await send().then(
      () => expect.unreachable('the call was sent'),
      (thrown: unknown) => thrown,
    )) as Error & { issues?: { path: string; rule: string }[] };
    expect(requests()).toBe(before);
    return error;
  };

  it.each([
    ['headers', { headers: { 'X-Note': VALUE } }, 'X-Note'],
    ['params.header', { params: { header: { 'User-Agent': VALUE } } }, 'User-Agent'],
  ])('in %s: a BaasValidationError naming the header, never its value, nothing sent', async (_where, init, header) => {
    const error = await refusal(() => baas().raw.GET(LIST, init as never));
    expect(error.name).toBe('BaasValidationError');
    expect(error.issues).toEqual([expect.objectContaining({ path: header, rule: RULE })]);
    expect(error.message).toBe(`raw: invalid input, 1 problem, nothing was sent: header ${header} ${RULE}`);
    expect(error.message).not.toContain('ByteString');
    expect(JSON.stringify(error)).not.toContain('secret-note');
  });

  it('through raw.request too, and a header it can send still goes', async () => {
    const error = await refusal(() => baas().raw.request('get', LIST, { headers: { 'X-Note': VALUE } } as never));
    expect(error.name).toBe('BaasValidationError');
    const before = requests();
    const { response } = await baas().raw.GET(LIST, { headers: { 'X-Note': 'plain' } } as never);
    expect(response.status).toBe(200);
    expect(requests()).toBe(before + 1);
  });
});
