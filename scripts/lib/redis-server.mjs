// Finds a redis-server for the shared-limit test: REDIS_SERVER_PATH, then the usual install paths;
// installs Debian's package where apt-get can be used as root (as chromium.mjs does for Chromium);
// otherwise fails saying how to get one. Run directly (`node scripts/lib/redis-server.mjs`) it prints
// the path or exits 1.
import { debianTool, runAsCommand } from './debian-tool.mjs';

const CANDIDATES = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'];
const HOW_TO =
  'The shared-limit test needs redis-server. Install it (Debian/Ubuntu: `sudo apt-get install -y redis-server`) or set REDIS_SERVER_PATH to a redis-server executable.';

const redis = debianTool({
  name: 'redis-server',
  envVar: 'REDIS_SERVER_PATH',
  pkg: 'redis-server',
  candidates: CANDIDATES,
  howTo: HOW_TO,
});

/** The redis-server to use, or undefined. A REDIS_SERVER_PATH that is not executable is an error, not a fallback. */
export const findRedisServer = redis.find;
/** Finds redis-server, installing it with apt-get when running as root; rejects with how to get one. */
export const ensureRedisServer = redis.ensure;

runAsCommand(import.meta.url, ensureRedisServer);
