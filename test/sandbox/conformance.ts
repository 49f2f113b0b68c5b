// Every sandbox answer checked against the bundled spec with Ajv (the spec's schemas, not the
// sandbox's code): a documented status, its media type, its headers, and a body valid for its schema.
import { validatorFor } from '../support/ajv.js';
import { deref, spec } from '../support/spec.js';

export type Operation = 'updateNaturalPerson' | 'listPixKeys';
const PATHS: Record<Operation, [string, string]> = {
  updateNaturalPerson: ['/v2/api/baas-onboarding/account/natural-person', 'put'],
  listPixKeys: ['/v2/api/pix/keys/list-keys', 'get'],
};

export interface Checked {
  status: number;
  body: any;
  headers: Headers;
}

/** Reads the response and throws, naming what is wrong, unless it is one the contract documents. */
export async function conforming(operation: Operation, response: Response): Promise<Checked> {
  const [path, method] = PATHS[operation];
  const status = response.status;
  const declared = spec.paths[path]![method].responses[String(status)];
  if (!declared) throw new Error(`${operation} answered ${status}, which the spec does not document`);
  const documented = deref(declared);
  const [mediaType] = Object.keys(documented.content);
  const contentType = response.headers.get('content-type') ?? '';
  if (!contentType.startsWith(mediaType!))
    throw new Error(`${operation} ${status}: content-type ${contentType}, spec says ${mediaType}`);
  for (const [name, header] of Object.entries<any>(documented.headers ?? {})) {
    if (deref(header).required && !response.headers.has(name))
      throw new Error(`${operation} ${status}: required header ${name} missing`);
  }
  if (!response.headers.get('x-request-id')) throw new Error(`${operation} ${status}: no X-Request-Id`);
  const body = await response.json();
  const schemaRef = documented.content[mediaType!].schema.$ref as string;
  const validate = validatorFor(schemaRef.replace(/^#/, ''));
  if (!validate(body))
    throw new Error(`${operation} ${status}: body breaks ${schemaRef}: ${JSON.stringify(validate.errors)}`);
  return { status, body, headers: response.headers };
}
