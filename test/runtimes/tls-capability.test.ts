// The `tls` option on a runtime that cannot present a client certificate (workerd: no node:tls secure
// contexts) fails at creation, naming the option and what the runtime lacks. The decision is made by
// what the runtime has; here, on Node, it is forced with an injected loader of built-in modules, and
// end to end with process.getBuiltinModule answering as such a runtime would.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientCredentials } from '../../src/auth/client-credentials.js';
import { createBaasClient } from '../../src/index.js';
import { requireTlsSupport, tlsLimitation } from '../../src/tls/capability.js';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const TOKEN_URL = 'https://auth.example/oauth/token';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('tlsLimitation: what the runtime lacks for `tls`', () => {
  it('is nothing on Node, whose node:tls makes secure contexts', () => {
    expect(tlsLimitation()).toBeUndefined();
  });

  it('names node:tls when the runtime has no built-in modules at all', () => {
    expect(tlsLimitation(null)).toMatch(/no Node\.js built-in modules .*node:tls/);
  });

  it('names node:tls when the module is not there, or has no createSecureContext', () => {
    const missing = () => {
      throw new Error('No such built-in module: node:tls');
    };
    expect(tlsLimitation(missing)).toContain('node:tls');
    expect(tlsLimitation(() => undefined)).toContain('createSecureContext');
    expect(tlsLimitation(() => ({}))).toContain('createSecureContext');
  });

  it('finds a stub: a createSecureContext that throws', () => {
    const stub = {
      createSecureContext: () => {
        throw new Error('ERR_METHOD_NOT_IMPLEMENTED');
      },
    };
    expect(tlsLimitation(() => stub)).toContain('secure context');
  });

  it("finds a shell: a secure context without a native context in it (workerd's)", () => {
    expect(tlsLimitation(() => ({ createSecureContext: () => ({}) }))).toContain('native secure context');
    expect(tlsLimitation(() => ({ createSecureContext: () => ({ context: null }) }))).toContain('native');
    expect(tlsLimitation(() => ({ createSecureContext: () => undefined }))).toContain('native');
  });

  it("finds a runtime's own undici (Bun's, whose Agent ignores the certificate), where Node has none", () => {
    const tls = { createSecureContext: () => ({ context: {} }) };
    const withOwnUndici = (id: string) => (id === 'node:tls' ? tls : { Agent: class {} });
    expect(tlsLimitation(withOwnUndici)).toContain('undici');
    expect(process.getBuiltinModule('undici')).toBeUndefined();
  });

  it('asks for node:tls and undici, with a working module and no own undici: nothing lacking', () => {
    const asked: string[] = [];
    const load = (id: string) => {
      asked.push(id);
      return id === 'node:tls' ? { createSecureContext: () => ({ context: {} }) } : undefined;
    };
    expect(tlsLimitation(load)).toBeUndefined();
    expect(asked).toEqual(['node:tls', 'undici']);
  });
});

describe('requireTlsSupport', () => {
  it('throws a TypeError naming the option and the limitation; nothing when nothing lacks', () => {
    expect(() => requireTlsSupport('clientCredentials.tls', 'this runtime lacks X')).toThrow(TypeError);
    const error = (() => {
      try {
        requireTlsSupport('clientCredentials.tls', 'this runtime lacks X');
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toMatch(/^clientCredentials\.tls needs node:tls/);
    expect(error?.message).toContain('this runtime lacks X');
    expect(() => requireTlsSupport('tls', undefined)).not.toThrow();
  });
});

describe('at creation, on a runtime whose node:tls cannot make a secure context', () => {
  /** process.getBuiltinModule as workerd's answers for node:tls (a context without a native one); others as Node's. */
  function asWorkerd(): void {
    const real = process.getBuiltinModule.bind(process);
    const workerdTls = { createSecureContext: () => ({}) };
    vi.spyOn(process, 'getBuiltinModule').mockImplementation(((id: string) =>
      id === 'node:tls' ? workerdTls : real(id)) as typeof process.getBuiltinModule);
  }

  it('createBaasClient({ tls }) throws, naming tls; without tls it is created', () => {
    asWorkerd();
    expect(() => createBaasClient({ baseUrl: 'https://api.example', token: 't', tls: { ca: CA } })).toThrow(
      /^tls needs node:tls/,
    );
    expect(() => createBaasClient({ baseUrl: 'https://api.example', token: 't' })).not.toThrow();
  });

  it('clientCredentials({ tls }) throws, naming clientCredentials.tls; without tls it is created', () => {
    asWorkerd();
    const options = { tokenUrl: TOKEN_URL, clientId: 'a', clientSecret: 'secret-1' };
    expect(() => clientCredentials({ ...options, tls: { ca: CA } })).toThrow(/^clientCredentials\.tls needs node:tls/);
    expect(() => clientCredentials(options)).not.toThrow();
  });

  it('on Node itself, both are created with tls (the material is checked on the first request)', () => {
    expect(() => createBaasClient({ baseUrl: 'https://api.example', token: 't', tls: { ca: CA } })).not.toThrow();
    expect(() =>
      clientCredentials({ tokenUrl: TOKEN_URL, clientId: 'a', clientSecret: 'secret-1', tls: { ca: CA } }),
    ).not.toThrow();
  });
});
