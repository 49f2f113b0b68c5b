// The one request builder: method, URL and headers of an operation, read from the generated operation
// table (src/generated/operations.ts), for the client's typed methods and for verify alike. It lives
// here, beside the pre-flight checks, because this is the part of the contract both the client and
// verify may import (ARCHITECTURE.md); it sends nothing: the caller hands the request to the transport.
// test/transport/one-loop.test.ts fails when another module of src/ builds a request URL by hand.
import { BaasValidationError } from '../errors.js';
import { operations, type Operation, type OperationName } from '../generated/operations.js';
import type { Secrets } from '../redact.js';
import { issueAt } from './issues.js';

/** A value of a query or path parameter, as the caller has it; `undefined` leaves the parameter out. */
type ParamValue = string | number | undefined;

/** The names of an operation's query parameters, from the table. */
type QueryName<N extends OperationName> = (typeof operations)[N]['query'][number]['name'];

export interface RequestInput<N extends OperationName = OperationName> {
  /** The service's root (a gateway's prefix kept); the operation's path is added to it. */
  baseUrl: string;
  /** The operation's query parameters, sent in the spec's order; a name the operation has not is refused. */
  query?: Partial<Record<QueryName<N>, ParamValue>> | undefined;
  /** The operation's path parameters, by name. */
  path?: Record<string, string> | undefined;
  /**
   * Header fields of the sender (Accept, User-Agent, the caller's own): each must be valid HTTP, and the
   * header parameters the operation requires must be among them.
   */
  headers?: Record<string, string> | undefined;
  /** The request body, sent as JSON with the operation's media type; ignored by an operation without one. */
  body?: unknown;
  /**
   * Query parameters sent exactly as given, outside the contract's types and bounds, after (and over)
   * `query`: for a probe that checks the provider refuses them (verify's `limit=201`). Never set by
   * the client's typed methods, whose pre-flight keeps values within the contract.
   */
  outOfContractQuery?: Record<string, string> | undefined;
  /** The sender's secrets, through which the error for a header that is not valid HTTP is masked. */
  secrets: Secrets;
}

/** An operation the builder builds: an operationId of the table. */
export type RequestName = OperationName;

export interface BuiltRequest {
  operation: OperationName;
  method: Operation['method'];
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

// RFC 9110 field names (tokens), and values without control characters other than tab.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE_FORBIDDEN = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/**
 * A parameter value as RFC 6570 form expansion writes it (OpenAPI's default `style: form` with
 * `allowReserved: false`): everything but the unreserved characters of RFC 3986 is percent-encoded,
 * including the `!'()*` that `encodeURIComponent` leaves alone.
 */
const encodeValue = (value: string | number): string =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The URL of `operation`: the base URL's path (trailing slashes dropped, a gateway's prefix kept), the
 * operation's path with its path parameters filled in, encoded, and the query in the spec's order,
 * then any out-of-contract parameters.
 */
export function operationUrl(
  baseUrl: string,
  operation: Pick<Operation, 'path' | 'pathParams' | 'query'>,
  params: Pick<RequestInput, 'path' | 'outOfContractQuery'> & { query?: Record<string, ParamValue> | undefined },
): string {
  const url = new URL(baseUrl);
  let path: string = operation.path;
  if (operation.pathParams.length > 0)
    path = path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeValue(params.path?.[name] ?? ''));
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  const known = new Set<string>(operation.query.map(({ name }) => name));
  for (const name of Object.keys(params.query ?? {}))
    if (!known.has(name)) throw new TypeError(`the operation has no query parameter ${JSON.stringify(name)}`);
  const pairs: [string, string | number][] = [];
  const raw = params.outOfContractQuery ?? {};
  for (const { name } of operation.query) {
    const value = params.query?.[name];
    if (value !== undefined && !Object.hasOwn(raw, name)) pairs.push([name, value]);
  }
  pairs.push(...Object.entries(raw));
  url.search = pairs.map(([name, value]) => `${encodeValue(name)}=${encodeValue(value)}`).join('&');
  return url.toString();
}

/**
 * The request of operation `name`: its method and URL from the table, the sender's headers checked as
 * HTTP, the header parameters the operation requires checked present, and the body as JSON with the
 * operation's media type. Throws a BaasValidationError (nothing sent) for a header that is not valid HTTP.
 */
export function buildRequest<N extends OperationName>(name: N, input: RequestInput<N>): BuiltRequest {
  const operation: Operation = operations[name];
  const headers: Record<string, string> = {};
  for (const [header, value] of Object.entries(input.headers ?? {})) {
    if (!HEADER_NAME.test(header) || typeof value !== 'string' || HEADER_VALUE_FORBIDDEN.test(value))
      throw new BaasValidationError([issueAt('headers', 'is not valid HTTP (name or value)', 'a header')], {
        operation: name,
        secrets: input.secrets,
      });
    headers[header] = value;
  }
  const given = new Set(Object.keys(headers).map((header) => header.toLowerCase()));
  for (const { name: header, required } of operation.header)
    if (required && !given.has(header.toLowerCase())) throw new TypeError(`${name} requires the ${header} header`);
  let body: string | undefined;
  if (operation.body !== undefined && input.body !== undefined) {
    headers['Content-Type'] = operation.body;
    body = JSON.stringify(input.body);
  }
  const url = operationUrl(input.baseUrl, operation, input as RequestInput);
  return { operation: name, method: operation.method, url, headers, body };
}
