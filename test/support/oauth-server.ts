// A real OAuth2 server (oauth2-mock-server) on 127.0.0.1 for the tests of clientCredentials, started
// with an RS256 key and a token id in every token, so two tokens issued within one second differ.
import { randomUUID } from 'node:crypto';
import { OAuth2Server } from 'oauth2-mock-server';

/** The started server and its token URL; stop it with `oauth.stop()`. */
export async function startOAuthServer(): Promise<{ oauth: OAuth2Server; tokenUrl: string }> {
  const oauth = new OAuth2Server();
  await oauth.issuer.keys.generate('RS256');
  await oauth.start(0, '127.0.0.1');
  oauth.service.on('beforeTokenSigning', (token) => {
    token.payload.jti = randomUUID();
  });
  return { oauth, tokenUrl: `http://127.0.0.1:${oauth.address().port}/token` };
}
