// The optional peers a command needs (Prism for `mock`, the Redocly CLI for `docs`, Faker and
// @hono/node-server for `sandbox`): looked for before the command starts anything, next to this
// package, as the command would load them. One not installed is one error that names it and the exact
// npm command that installs it (every missing one in one line), and the command exits 2, as for a
// usage error: something must change before a rerun can work (./connection/exit-codes.ts).
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

export interface Peer {
  /** The npm package. */
  name: string;
  /** What it is called in a sentence. */
  what: string;
  /** The range this package supports: what the install command asks for. */
  range: string;
  /** Said after the install command, when a version needs more (5.15 needs Node 24). */
  note?: string;
}

export const PRISM: Peer = {
  name: '@stoplight/prism-cli',
  what: 'Prism',
  range: '~5.14',
  note: '5.15 and later need Node 24',
};
export const REDOCLY: Peer = { name: '@redocly/cli', what: 'the Redocly CLI', range: '^2' };
export const FAKER: Peer = { name: '@faker-js/faker', what: 'Faker', range: '^10' };
export const HONO_SERVER: Peer = { name: '@hono/node-server', what: "Hono's Node server", range: '^2' };

/** A peer as npm is asked for it: `@stoplight/prism-cli@~5.14`. */
export const packageSpec = (peer: Peer): string => `${peer.name}@${peer.range}`;

/** The one command that installs `peers`, as a user types it. */
export const installCommand = (peers: readonly Peer[]): string =>
  `npm install --save-dev ${peers.map(packageSpec).join(' ')}`;

/** Optional peers that are not installed: the command cannot start until they are. */
export class MissingPeerError extends Error {
  override name = 'MissingPeerError';
  constructor(
    readonly peers: readonly Peer[],
    cause: unknown,
  ) {
    const named = peers.map((peer) => `${peer.what} (${peer.name})`).join(' and ');
    const notes = peers.flatMap((peer) => (peer.note ? [peer.note] : []));
    super(
      `needs ${named}, ${peers.length > 1 ? 'optional peers of this package that are' : 'an optional peer of this package that is'} not installed here: install ${peers.length > 1 ? 'them' : 'it'} with \`${installCommand(peers)}\`${notes.length > 0 ? ` (${notes.join('; ')})` : ''}, then run the command again`,
      { cause },
    );
  }
}

const require = createRequire(import.meta.url);

/** Where `peer`'s package.json is, or the error that says it is not installed (null: installed, its manifest not exported). */
function locate(peer: Peer): { manifest: string | null } | { missing: unknown } {
  try {
    return { manifest: require.resolve(`${peer.name}/package.json`) };
  } catch (error) {
    // Installed, but its exports keep its package.json private (@hono/node-server).
    if ((error as { code?: string }).code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') return { manifest: null };
    return { missing: error };
  }
}

/**
 * The folder of each of `peers`, in order (null for one installed whose package.json is not exported);
 * a `MissingPeerError` naming every one that is not installed. Its message follows the command's name
 * (`baas-pix-contract mock: needs Prism …`).
 */
export function needPeers(peers: readonly Peer[]): (string | null)[] {
  const found = peers.map(locate);
  const missing = peers.filter((_, index) => 'missing' in found[index]!);
  if (missing.length > 0) {
    const first = found.find((place) => 'missing' in place) as { missing: unknown };
    throw new MissingPeerError(missing, first.missing);
  }
  return found.map((place) => {
    const { manifest } = place as { manifest: string | null };
    return manifest === null ? null : dirname(manifest);
  });
}
