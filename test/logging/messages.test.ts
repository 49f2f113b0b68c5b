// The log line of each event, word for word, and the level it is logged at: what an operator reads
// in the logs and filters on.
import { describe, expect, it } from 'vitest';
import { levelOf, messageOf, type BaasEvent } from '../../src/logging/events.js';

const call = {
  operation: 'listPixKeys' as const,
  method: 'GET',
  url: 'https://api.baas.example/v2/api/pix/keys/list-keys?limit=5',
  attempt: 1,
};
const raw = { operation: 'raw' as const, method: 'POST', url: 'https://api.baas.example/v2/other', attempt: 3 };

const LINES: [string, BaasEvent, string, string][] = [
  [
    'a request',
    { type: 'request', ...call },
    'debug',
    'baas: listPixKeys GET https://api.baas.example/v2/api/pix/keys/list-keys?limit=5 attempt 1 sent',
  ],
  [
    'a raw request (through client.raw)',
    { type: 'request', ...raw },
    'debug',
    'baas: raw POST https://api.baas.example/v2/other attempt 3 sent',
  ],
  [
    'a response with a request id',
    { type: 'response', ...call, status: 200, durationMs: 41.6, requestId: 'req-9' },
    'debug',
    'baas: listPixKeys GET https://api.baas.example/v2/api/pix/keys/list-keys?limit=5 attempt 1 answered HTTP 200 in 42 ms (request id req-9)',
  ],
  [
    'a response without one',
    { type: 'response', ...raw, status: 204, durationMs: 3.2 },
    'debug',
    'baas: raw POST https://api.baas.example/v2/other attempt 3 answered HTTP 204 in 3 ms',
  ],
  [
    'a retry',
    { type: 'retry', ...call, reason: 'HTTP 503', waitMs: 249.5 },
    'info',
    'baas: listPixKeys GET https://api.baas.example/v2/api/pix/keys/list-keys?limit=5 attempt 1 failed (HTTP 503); retrying in 250 ms',
  ],
  [
    'an error after one attempt',
    { type: 'error', ...call, errorName: 'BaasApiError', message: 'HTTP 404 Not Found', durationMs: 10 },
    'error',
    'baas: listPixKeys GET https://api.baas.example/v2/api/pix/keys/list-keys?limit=5 failed after 1 attempt: BaasApiError: HTTP 404 Not Found',
  ],
  [
    'an error after three',
    { type: 'error', ...raw, errorName: 'BaasTimeoutError', message: 'timed out', durationMs: 10 },
    'error',
    'baas: raw POST https://api.baas.example/v2/other failed after 3 attempts: BaasTimeoutError: timed out',
  ],
  [
    'a token fetched',
    { type: 'token', action: 'fetched', tokenUrl: 'https://auth.example/token' },
    'debug',
    'baas: token fetched at https://auth.example/token',
  ],
  ['a token invalidated, no URL', { type: 'token', action: 'invalidated' }, 'debug', 'baas: token invalidated'],
  [
    'a token failed',
    { type: 'token', action: 'failed', tokenUrl: 'https://auth.example/token', error: 'invalid_client' },
    'warn',
    'baas: token failed at https://auth.example/token (invalid_client)',
  ],
  [
    'a drift with one problem',
    {
      type: 'drift',
      operationId: 'listPixKeys',
      status: 200,
      method: 'GET',
      url: 'https://api.baas.example/keys',
      problems: [{ part: 'body', pointer: '/data/0/key', rule: 'is required' }],
    },
    'warn',
    'baas: listPixKeys GET https://api.baas.example/keys answered HTTP 200 off the contract: 1 problem (see problems)',
  ],
  [
    'a drift with two, no method or URL',
    {
      type: 'drift',
      operationId: 'listPixKeys',
      status: 500,
      problems: [
        { part: 'header', pointer: '/retry-after', rule: 'is required' },
        { part: 'content-type', pointer: '', rule: 'must be application/problem+json' },
      ],
    },
    'warn',
    'baas: listPixKeys   answered HTTP 500 off the contract: 2 problems (see problems)',
  ],
];

describe('messageOf and levelOf', () => {
  it.each(LINES)('%s', (_name, event, level, message) => {
    expect(levelOf(event)).toBe(level);
    expect(messageOf(event)).toBe(message);
  });
});
