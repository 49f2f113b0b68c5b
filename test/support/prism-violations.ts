// Prism's sl-violations as the same kind of path the validators report: `/address/state` for a
// body field, `` for the body itself, the parameter name for a query parameter (Prism lower-cases
// those, so compare query names case-insensitively).
import { slViolations } from './mock.js';

export function prismPaths(response: Response): string[] {
  return slViolations(response).map((violation) => {
    const [, where, ...rest] = violation.location;
    // A missing or unknown property is reported on its parent, with the name in the message.
    const named = /(?:found|required property) '([^']+)'/.exec(violation.message)?.[1];
    const parts = [...rest, ...(named ? [named] : [])];
    return where === 'body'
      ? parts.map((p) => `/${p.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')
      : parts.join('.').toLowerCase();
  });
}

/** The paths, query names lower-cased, without repeats: what to compare with a validator's paths. */
export const comparablePaths = (paths: readonly string[]): string[] =>
  [...new Set(paths.map((path) => (path.startsWith('/') || path === '' ? path : path.toLowerCase())))].sort();
