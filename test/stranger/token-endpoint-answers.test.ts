// A stranger's first week: tokenUrl set to something that is not the token endpoint (the provider's
// sign-in page, its portal, another JSON API, an http:// URL that redirects to https://). The
// BaasTokenError says what came back, in a few words that never hold a value of the body, and where to look.
import { describe, expect, it } from 'vitest';
import { clientCredentials } from '../../src/auth/client-credentials.js';
import { BaasTokenError } from '../../src/auth/token-error.js';

const SECRET = 'sbx_secret_254a18383527440f62b83ec45c68d7fa';
const CPF = '52998224725';

/** The token source's error for one answer of the endpoint. */
async function failureFor(answer: () => Response): Promise<BaasTokenError> {
  const source = clientCredentials({
    tokenUrl: 'https://auth.example/login',
    clientId: 'stranger',
    clientSecret: SECRET,
    fetch: async () => answer(),
  });
  const error = await source().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  await source.close();
  expect(error).toBeInstanceOf(BaasTokenError);
  return error as BaasTokenError;
}

const html = (body: string, type = 'text/html; charset=utf-8') =>
  new Response(body, { status: 200, headers: { 'content-type': type } });
const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

describe('a 200 from tokenUrl that holds no token', () => {
  it('an HTML page (a sign-in page) is named as one, with where to look, and none of its text', async () => {
    const error = await failureFor(() => html(`<!doctype html><title>Entrar</title><p>${SECRET} ${CPF}</p>`));
    expect(error.failure).toBe('invalid_response');
    expect(error.message).toContain('an HTML page, not JSON');
    expect(error.message).toContain('check that tokenUrl is the token endpoint');
    expect(error.message).not.toContain('Entrar');
    expect(error.message).not.toContain(SECRET);
    expect(error.message).not.toContain(CPF);
  });

  it('an HTML page sent without its Content-Type is known by its first character', async () => {
    const error = await failureFor(() => html('  <html><body>portal</body></html>', 'application/octet-stream'));
    expect(error.message).toContain('an HTML page, not JSON');
  });

  it('other text names its media type, never its content', async () => {
    const error = await failureFor(() => html('access_token=abc&expires_in=300', 'text/plain'));
    expect(error.message).toContain('a body that is not JSON (text/plain)');
    expect(error.message).not.toContain('abc');
  });

  it('a Content-Type that is not a media type is not shown', async () => {
    const error = await failureFor(() => html('nope', `text/plain\u001b[31m ${SECRET}`));
    expect(error.message).toContain('a body that is not JSON)');
    expect(error.message).not.toContain(SECRET);
  });

  it('an empty body says so', async () => {
    const error = await failureFor(() => html('', 'application/json'));
    expect(error.message).toContain('an empty body, not JSON');
  });

  it('JSON of another API names its members (at most five), never their values', async () => {
    const error = await failureFor(() => json({ token: SECRET, cpf: CPF, a: 1, b: 2, c: 3, d: 4, e: 5 }));
    expect(error.message).toContain(
      'JSON without access_token: its members are "token", "cpf", "a", "b", "c", … (7 in all)',
    );
    expect(error.message).not.toContain(SECRET);
    expect(error.message).not.toContain(CPF);
  });

  it('a member whose name is the client secret or a CPF is masked', async () => {
    const error = await failureFor(() => json({ [SECRET]: 1, [CPF]: 2 }));
    expect(error.message).toContain('JSON without access_token: its members are');
    expect(error.message).not.toContain(SECRET);
    expect(error.message).not.toContain(CPF);
  });

  it('JSON that is not an object says what it is, never the value (it may be the token itself)', async () => {
    const error = await failureFor(() => json('sbx_at_0123456789abcdef'));
    expect(error.message).toContain('JSON without access_token: a string, not an object');
    expect(error.message).not.toContain('sbx_at_0123456789abcdef');
    expect((await failureFor(() => json([1]))).message).toContain('JSON without access_token: a list, not an object');
    expect((await failureFor(() => json({}))).message).toContain('JSON without access_token: an empty object');
  });
});

it('an access_token that is not text says what it is, never its value', async () => {
  const error = await failureFor(() => json({ access_token: 123456789, token_type: 'Bearer' }));
  expect(error.message).toContain('JSON without access_token as text: it is a number');
  expect(error.message).not.toContain('123456789');
  expect((await failureFor(() => json({ access_token: '' }))).message).toContain('it is empty');
});

describe('a redirect from tokenUrl', () => {
  it('says why it is not followed and what to set instead', async () => {
    const error = await failureFor(
      () => new Response(null, { status: 301, headers: { location: 'https://auth.example/login' } }),
    );
    expect(error.failure).toBe('network');
    expect(error.message).toContain('a token request is never redirected (it carries the client secret)');
    expect(error.message).toContain('set tokenUrl to the URL the endpoint answers at itself');
  });
});
