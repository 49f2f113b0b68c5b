/**
 * Prism picks a response per request from the `Prefer` header. These helpers build it, e.g.
 * `headers: preferHeaders({ code: 429 })` or `preferHeaders({ example: 'LastPage' })`.
 */
export interface MockPreference {
  /** The status code of the documented response to serve. */
  code?: number;
  /** The name of the documented example to serve. */
  example?: string;
  /** Generate this response from its schema instead of an example. */
  dynamic?: boolean;
}

// Prism splits the header on commas and each part on "=": a name holding either, or white space,
// would silently ask for something else.
const EXAMPLE_NAME = /^[^\s,=]+$/;

/** The value of a `Prefer` header asking Prism for a status, an example or a content type. */
export function preferHeader(preference: MockPreference): string {
  const parts: string[] = [];
  if (preference.code !== undefined) {
    if (!Number.isInteger(preference.code) || preference.code < 100 || preference.code > 599) {
      throw new RangeError(`preferHeader: code must be an HTTP status (100-599), got ${preference.code}`);
    }
    parts.push(`code=${preference.code}`);
  }
  if (preference.example !== undefined) {
    if (!EXAMPLE_NAME.test(preference.example)) {
      throw new RangeError(
        `preferHeader: example must be an example's name, without spaces, commas or "=", got ${JSON.stringify(preference.example)}`,
      );
    }
    parts.push(`example=${preference.example}`);
  }
  if (preference.dynamic !== undefined) parts.push(`dynamic=${preference.dynamic}`);
  if (parts.length === 0) throw new Error('preferHeader needs at least one of code, example or dynamic');
  return parts.join(', ');
}

/** `{ Prefer: preferHeader(preference) }`, to spread into a call's `headers`. */
export function preferHeaders(preference: MockPreference): { Prefer: string } {
  return { Prefer: preferHeader(preference) };
}
