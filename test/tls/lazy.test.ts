// lazyTlsFetch with the TLS fetch module replaced by a fake: the type is checked at creation, the
// options are copied then, the fetch is built once on the first call (again after a failure or a
// close), and close() releases what was built.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyTlsFetch } from '../../src/tls/lazy.js';
import type { TlsOptions } from '../../src/tls/options.js';

const built = vi.hoisted(() => ({
  usable: vi.fn<(tls: unknown, where: string) => Promise<unknown>>(),
}));
vi.mock('../../src/tls/fetch.js', () => ({ usableTlsFetch: built.usable }));

afterEach(() => {
  built.usable.mockReset();
});

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

/** A built TLS fetch that answers with its own name. */
function fakeTlsFetch(name: string) {
  const close = vi.fn(async () => undefined);
  const send = vi.fn(async (url: string, init: RequestInit) => new Response(`${name} ${url} ${String(init.method)}`));
  return Object.assign(send, { close });
}

describe('lazyTlsFetch', () => {
  it.each([
    ['a string', 'PEM'],
    ['null', null],
    ['an array', [CA]],
    ['a number', 7],
    ['undefined', undefined],
  ])('%s is refused at creation', (_name, tls) => {
    expect(() => lazyTlsFetch(tls as unknown as TlsOptions)).toThrow(
      new TypeError('tls must be an object: { cert, key, passphrase? }, { pfx, passphrase? } or { ca }'),
    );
    expect(() => lazyTlsFetch(tls as unknown as TlsOptions, 'clientCredentials.tls')).toThrow(
      new TypeError(
        'clientCredentials.tls must be an object: { cert, key, passphrase? }, { pfx, passphrase? } or { ca }',
      ),
    );
    expect(built.usable).not.toHaveBeenCalled();
  });

  it('builds nothing until the first call, then once for every call after it', async () => {
    const f = fakeTlsFetch('first');
    built.usable.mockResolvedValue(f);
    const lazy = lazyTlsFetch({ ca: CA }, 'clientCredentials.tls');
    expect(built.usable).not.toHaveBeenCalled();
    const answers = await Promise.all([
      lazy('https://a.example/1', { method: 'GET' }),
      lazy('https://a.example/2', { method: 'PUT' }),
    ]);
    expect(await Promise.all(answers.map((a) => a.text()))).toStrictEqual([
      'first https://a.example/1 GET',
      'first https://a.example/2 PUT',
    ]);
    await lazy('https://a.example/3', {});
    expect(built.usable).toHaveBeenCalledTimes(1);
    expect(built.usable).toHaveBeenCalledWith({ ca: CA }, 'clientCredentials.tls');
    expect(f).toHaveBeenCalledTimes(3);
  });

  it("where defaults to 'tls'", async () => {
    built.usable.mockResolvedValue(fakeTlsFetch('x'));
    await lazyTlsFetch({ ca: CA })('https://a.example/', {});
    expect(built.usable).toHaveBeenCalledWith({ ca: CA }, 'tls');
  });

  it('takes the options as they were at creation', async () => {
    built.usable.mockResolvedValue(fakeTlsFetch('x'));
    const options: Record<string, unknown> = { ca: CA };
    const lazy = lazyTlsFetch(options as unknown as TlsOptions);
    options.ca = 'changed';
    options.pfx = 'added';
    await lazy('https://a.example/', {});
    expect(built.usable.mock.calls[0]?.[0]).toStrictEqual({ ca: CA });
  });

  it('a failed build is not kept: every call reports it, and a later success is used', async () => {
    const unusable = Object.assign(new TypeError('tls.passphrase could not be used: bad decrypt'), {
      code: 'ERR_TLS_OPTION',
    });
    built.usable
      .mockRejectedValueOnce(unusable)
      .mockRejectedValueOnce(unusable)
      .mockResolvedValue(fakeTlsFetch('later'));
    const lazy = lazyTlsFetch({ ca: CA });
    await expect(lazy('https://a.example/', {})).rejects.toBe(unusable);
    await expect(lazy('https://a.example/', {})).rejects.toBe(unusable);
    expect(await (await lazy('https://a.example/ok', {})).text()).toBe('later https://a.example/ok undefined');
    expect(built.usable).toHaveBeenCalledTimes(3);
  });

  it('close() before any call builds nothing', async () => {
    const lazy = lazyTlsFetch({ ca: CA });
    await lazy.close();
    expect(built.usable).not.toHaveBeenCalled();
  });

  it('close() closes what was built; the next call builds a new one', async () => {
    const first = fakeTlsFetch('first');
    const second = fakeTlsFetch('second');
    built.usable.mockResolvedValueOnce(first).mockResolvedValueOnce(second);
    const lazy = lazyTlsFetch({ ca: CA });
    await lazy('https://a.example/', {});
    await lazy.close();
    expect(first.close).toHaveBeenCalledTimes(1);
    // A second close has nothing left to close.
    await lazy.close();
    expect(first.close).toHaveBeenCalledTimes(1);
    expect(await (await lazy('https://a.example/n', {})).text()).toBe('second https://a.example/n undefined');
    expect(built.usable).toHaveBeenCalledTimes(2);
  });

  it('close() after a failed build, or a close that fails, still resolves', async () => {
    built.usable.mockRejectedValueOnce(new TypeError('unusable'));
    const lazy = lazyTlsFetch({ ca: CA });
    const pending = lazy('https://a.example/', {});
    await expect(lazy.close()).resolves.toBeUndefined();
    await expect(pending).rejects.toThrow('unusable');

    const failing = fakeTlsFetch('x');
    failing.close.mockRejectedValue(new Error('close failed'));
    built.usable.mockResolvedValueOnce(failing);
    await lazy('https://a.example/', {});
    await expect(lazy.close()).resolves.toBeUndefined();
    expect(failing.close).toHaveBeenCalledTimes(1);
  });
});
