// Prism's sl-violations as the same kind of path the validators report: `/address/state` for a
// body field, the parameter name for a query parameter (Prism lower-cases those).
import { slViolations } from './mock.js';

export function prismPaths(response: Response): string[] {
  return slViolations(response).map((violation) => {
    const [, where, ...rest] = violation.location;
    const named = /(?:found|required property) '([^']+)'/.exec(violation.message)?.[1];
    const parts = [...rest, ...(named ? [named] : [])];
    return where === 'body' ? parts.map((p) => `/${p}`).join('') : parts.join('.').toLowerCase();
  });
}
