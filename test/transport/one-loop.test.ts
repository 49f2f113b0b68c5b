// One retry loop and one wait, as rules over the source: every part that sends (the client's call,
// the token request, verify) goes through src/transport/pipeline.ts; the only timer armed as a wait
// is src/transport/sleep.ts's; the retry decision is asked in one place; the batch and verify hold no
// loop of attempts and no wait of their own, and nothing passes attempt counts around the loop; one type
// says "too large", and one read of a stream counts its bytes.
import { describe, expect, it } from 'vitest';
import { matching, sourceFiles } from '../support/source-scan.js';

describe('one retry loop', () => {
  it('every part that sends goes through the pipeline', async () => {
    const senders = ['src/client/call.ts', 'src/auth/request-token.ts', 'src/verify/budget.ts'];
    expect(await matching(senders, /\bsendRequest\(/)).toEqual(senders);
    // And nothing else starts an attempt of the transport outside the loop's `open`.
    const all = await sourceFiles('src');
    expect(await matching(all, /new Attempt\(/)).toEqual([
      'src/auth/request-token.ts',
      'src/client/call.ts',
      'src/verify/budget.ts',
    ]);
  });

  it('the retry decision is asked by the client call alone, and the only timers of the senders are the two', async () => {
    const all = await sourceFiles('src');
    expect(await matching(all, /\bshouldRetry\(/)).toEqual(['src/client/call.ts', 'src/client/retry.ts']);
    // In every part that sends: the attempt's own timer, and the one wait. (The sandbox's and the mock
    // server's delays are a server's, not a sender's.)
    const senders: string[] = [];
    for (const dir of ['src/client', 'src/auth', 'src/verify', 'src/batch', 'src/transport', 'src/tls', 'src/logging'])
      senders.push(...(await sourceFiles(dir)));
    expect(await matching(senders, /setTimeout\(/)).toEqual(['src/transport/attempt.ts', 'src/transport/sleep.ts']);
  });

  it('src/batch/ and src/verify/ hold no loop of attempts, no wait, and no hidden attempt count', async () => {
    const files = [...(await sourceFiles('src/batch')), ...(await sourceFiles('src/verify'))];
    expect(files.length).toBeGreaterThan(15);
    expect(await matching(files, /\bsleep\b|setTimeout|\bshouldRetry\b|PRIOR_ATTEMPTS|retry:\s*false/)).toEqual([]);
    expect(await matching(await sourceFiles('src'), /PRIOR_ATTEMPTS|priorAttempts/)).toEqual([]);
  });

  it('no HTTP path outside the transport: openapi-fetch only builds the raw requests a Call sends', async () => {
    const all = await sourceFiles('src');
    expect(await matching(all, /createRawClient|headersMiddleware/)).toEqual([]);
    expect(await matching(all, /from 'openapi-fetch'/)).toEqual(['src/client/raw.ts']);
    expect(await matching(['src/client/raw.ts'], /new Call\(/)).toEqual(['src/client/raw.ts']);
  });

  it('one type says "too large", from the read up to the user\'s error', async () => {
    const all = await sourceFiles('src');
    expect(await matching(all, /class \w*(TooLarge|TooBig)\w* extends/)).toEqual(['src/body-limit.ts']);
    expect(await matching(all, /BodyTooLargeError/)).toEqual([]);
  });

  it('one reading of Retry-After: only src/transport/retry-after.ts takes the header from an answer', async () => {
    const all = await sourceFiles('src');
    expect(await matching(all, /\.get\(\s*['"`]retry-after['"`]\s*\)/i)).toEqual(['src/transport/retry-after.ts']);
  });

  it('one bounded read of a body: only src/body-limit.ts takes a reader of a stream', async () => {
    // The answers the package reads and the requests the sandbox reads, both through readStreamWithin:
    // a second loop over a reader would be a second byte limit to keep in step.
    const all = await sourceFiles('src');
    expect(await matching(all, /\.getReader\(/)).toEqual(['src/body-limit.ts']);
  });
});
