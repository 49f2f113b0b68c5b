// The redis-server lookup never skips: it finds one (installing Debian's package as root), or fails
// saying how to get one; and the server the tests start answers on 127.0.0.1 and is gone once stopped.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureRedisServer, findRedisServer } from '../../scripts/lib/redis-server.mjs';
import { alive, descendants, eventually, portIsFree } from '../cli/processes.js';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { startRedisServer } from '../support/redis-server.js';

const commandOf = (pid: number) => execFileSync('ps', ['-o', 'comm=', '-p', String(pid)], { encoding: 'utf8' }).trim();

const saved = process.env.REDIS_SERVER_PATH;
afterEach(() => {
  if (saved === undefined) delete process.env.REDIS_SERVER_PATH;
  else process.env.REDIS_SERVER_PATH = saved;
});

describe('ensureRedisServer', () => {
  it('uses REDIS_SERVER_PATH first', async () => {
    const found = await ensureRedisServer();
    process.env.REDIS_SERVER_PATH = found;
    await expect(ensureRedisServer({ candidates: [] })).resolves.toBe(found);
    expect(findRedisServer([])).toBe(found);
  }, 300_000);

  it('refuses a REDIS_SERVER_PATH that is not an executable, saying how to install one', async () => {
    process.env.REDIS_SERVER_PATH = '/nonexistent/redis-server';
    await expect(ensureRedisServer()).rejects.toThrow(
      /REDIS_SERVER_PATH=\/nonexistent\/redis-server .*apt-get install -y redis-server/,
    );
  });

  it('fails, saying how to install one, when none is found and it may not install', async () => {
    delete process.env.REDIS_SERVER_PATH;
    await expect(ensureRedisServer({ candidates: ['/nonexistent/redis-server'], allowInstall: false })).rejects.toThrow(
      /apt-get install -y redis-server.*REDIS_SERVER_PATH/,
    );
  });
});

describe('startRedisServer', () => {
  it('serves on 127.0.0.1 without persistence, and stop() ends it and frees its port', async () => {
    const server = await startRedisServer();
    const redis = new Redis(server.url, { lazyConnect: true, enableOfflineQueue: false });
    try {
      await redis.connect();
      expect(await redis.ping()).toBe('PONG');
      expect(await redis.config('GET', 'bind')).toEqual(['bind', '127.0.0.1']);
      expect(await redis.config('GET', 'save')).toEqual(['save', '']);
      expect(await redis.config('GET', 'appendonly')).toEqual(['appendonly', 'no']);
      const pid = Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1]);
      redis.disconnect();
      await server.stop();
      expect(alive(pid)).toBe(false);
      expect(await portIsFree(server.port)).toBe(true);
    } finally {
      redis.disconnect();
      await server.stop();
    }
  }, 300_000);

  it('dies with the process that started it, even when that one is killed outright (SIGKILL)', async () => {
    const script =
      "import { startRedisServer } from './test/support/redis-server.ts'; await startRedisServer(); console.log('ready');";
    const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        parent.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
        parent.once('exit', (code) => reject(new Error(`the starting process exited (${code}) first`)));
      });
      // Among the descendants, tsx's esbuild service too.
      const servers = descendants(parent.pid!).filter((pid) => commandOf(pid) === 'redis-server');
      expect(servers).toHaveLength(1);
      const exited = once(parent, 'exit');
      parent.kill('SIGKILL');
      await exited;
      expect(await eventually(() => !alive(servers[0]!), 10_000), 'redis-server outlived its parent').toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  }, 300_000);
});
