// x-codeSamples for every operation, derived from the operation table (./operations.mjs) and the
// spec's own examples, never written by hand: curl, TypeScript with this package's createBaasClient,
// TypeScript with its raw openapi-fetch client (`baas.raw`), and Python with requests. Each sample
// reads the service root from BAAS_BASE_URL and the token from BAAS_TOKEN, the variables the examples
// and the command line read, so no credential is ever written into the spec.
//
// What goes in a sample, as rules over the spec (no list of names):
// - every required parameter, with its example;
// - an optional parameter only when its schema has a default (any value in range is then safe to
//   send; one without, like a cursor, is only known from an earlier answer);
// - the request body: the first named example of its JSON media type;
// - `Accept`: every media type the operation's responses declare, in the order first declared;
// - `Authorization: Bearer …` when the operation (or the document) uses an http bearer scheme.
import { listOperations, resolvePointer } from './operations.mjs';

export const SAMPLE_ENV = { baseUrl: 'BAAS_BASE_URL', token: 'BAAS_TOKEN' };
/** The labels of the four samples, in the order the page shows them. */
export const SAMPLE_LABELS = [
  'curl',
  'TypeScript (createBaasClient)',
  'TypeScript (raw openapi-fetch)',
  'Python (requests)',
];

const deref = (spec, node) => {
  let current = node;
  for (let hops = 0; hops < 10 && typeof current?.$ref === 'string'; hops += 1)
    current = resolvePointer(spec, current.$ref);
  return current;
};

const exampleOf = (spec, node) => {
  const found = deref(spec, node);
  if (found?.example !== undefined) return found.example;
  const first = Object.values(found?.examples ?? {})[0];
  return first === undefined ? undefined : deref(spec, first).value;
};

/** A parameter's name as the typed client takes it: camelCase (Account → account, User-Agent → userAgent). */
export const inputName = (name) =>
  name
    .split(/[-_]/)
    .map((part, index) =>
      index === 0 ? part[0].toLowerCase() + part.slice(1) : part[0].toUpperCase() + part.slice(1).toLowerCase(),
    )
    .join('');

/** What one operation's samples are made of: its parameters' and body's example values. */
export function sampleRequest(spec, operation) {
  const op = resolvePointer(spec, operation.pointer);
  const parameters = operation.parameters
    .map((p) => ({ ...p, node: resolvePointer(spec, p.pointer) }))
    .filter((p) => p.required || p.node.schema?.default !== undefined)
    .map((p) => {
      const value = exampleOf(spec, p.node) ?? p.node.schema?.default;
      if (value === undefined)
        throw new Error(`${operation.operationId}: parameter ${p.name} has no example, so no code sample can show it`);
      return { name: p.name, in: p.in, value };
    });
  let body;
  if (operation.body) {
    const media = resolvePointer(spec, operation.body.schemaPointer.replace(/\/schema$/, ''));
    body = exampleOf(spec, media);
    if (body === undefined) throw new Error(`${operation.operationId}: the request body has no example`);
  }
  const accept = [];
  for (const response of Object.values(op.responses ?? {}))
    for (const type of Object.keys(deref(spec, response).content ?? {})) if (!accept.includes(type)) accept.push(type);
  const security = op.security ?? spec.security ?? [];
  const schemes = spec.components?.securitySchemes ?? {};
  const bearer = security.some((requirement) =>
    Object.keys(requirement).some((name) => schemes[name]?.type === 'http' && /^bearer$/i.test(schemes[name].scheme)),
  );
  return {
    operationId: operation.operationId,
    method: operation.method,
    path: operation.path,
    query: parameters.filter((p) => p.in === 'query'),
    headers: parameters.filter((p) => p.in === 'header'),
    pathParams: parameters.filter((p) => p.in === 'path'),
    mediaType: operation.body?.mediaType,
    body,
    accept: accept.join(', '),
    bearer,
  };
}

const shellQuote = (text) => `'${String(text).replace(/'/g, `'\\''`)}'`;
const jsString = (text) => `'${String(text).replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
const pathWith = (request, fill) =>
  request.path.replace(/\{([^}]+)\}/g, (_, name) => fill(request.pathParams.find((p) => p.name === name)));

/** A JavaScript literal of a JSON value, indented, with unquoted keys where they are identifiers. */
function jsLiteral(value, indent = '') {
  const inner = `${indent}  `;
  if (Array.isArray(value))
    return value.length === 0 ? '[]' : `[\n${value.map((v) => inner + jsLiteral(v, inner)).join(',\n')},\n${indent}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const key = (k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : jsString(k));
    return `{\n${entries.map(([k, v]) => `${inner}${key(k)}: ${jsLiteral(v, inner)}`).join(',\n')},\n${indent}}`;
  }
  return typeof value === 'string' ? jsString(value) : JSON.stringify(value);
}

/** A Python literal of a JSON value (True, False, None; JSON's string escapes are Python's too). */
function pyLiteral(value, indent = '') {
  const inner = `${indent}    `;
  if (Array.isArray(value))
    return value.length === 0 ? '[]' : `[\n${value.map((v) => inner + pyLiteral(v, inner)).join(',\n')},\n${indent}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${pyLiteral(v, inner)}`).join(',\n')},\n${indent}}`;
  }
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (value === null) return 'None';
  return JSON.stringify(value);
}

function curlSample(r) {
  const query = r.query.map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(p.value))}`).join('&');
  const url = `$${SAMPLE_ENV.baseUrl}${pathWith(r, (p) => encodeURIComponent(String(p.value)))}${query ? `?${query}` : ''}`;
  // -i prints the status line and headers before the body.
  const lines = [`curl -sS -i -X ${r.method} "${url}"`];
  if (r.bearer) lines.push(`-H "Authorization: Bearer $${SAMPLE_ENV.token}"`);
  if (r.accept) lines.push(`-H ${shellQuote(`Accept: ${r.accept}`)}`);
  for (const p of r.headers) lines.push(`-H ${shellQuote(`${p.name}: ${p.value}`)}`);
  if (r.body !== undefined) {
    lines.push(`-H ${shellQuote(`Content-Type: ${r.mediaType}`)}`);
    lines.push(`--data-raw ${shellQuote(JSON.stringify(r.body))}`);
  }
  return `${lines.join(' \\\n  ')}\n`;
}

const CLIENT_SETUP = (r, { headerOptions = true } = {}) =>
  [
    `const baas = createBaasClient({`,
    `  baseUrl: process.env.${SAMPLE_ENV.baseUrl}!,`,
    ...(r.bearer ? [`  token: process.env.${SAMPLE_ENV.token}!,`] : []),
    // A header parameter is a client option of the same name (User-Agent → userAgent).
    ...(headerOptions ? r.headers.map((p) => `  ${inputName(p.name)}: ${jsString(p.value)},`) : []),
    `});`,
  ].join('\n');

function clientSample(r) {
  const members = [
    ...r.pathParams.map((p) => `${inputName(p.name)}: ${jsLiteral(p.value, '  ')}`),
    ...r.query.map((p) => `${inputName(p.name)}: ${jsLiteral(p.value, '  ')}`),
    ...(r.body === undefined ? [] : [`body: ${jsLiteral(r.body, '  ')}`]),
  ];
  const input = members.length === 0 ? '' : `{\n${members.map((m) => `  ${m},\n`).join('')}}`;
  return `import { createBaasClient } from 'baas-pix-contract';

${CLIENT_SETUP(r)}
// Validated before it is sent; .withResponse() adds the status, headers and request id.
const { data, response } = await baas.${r.operationId}(${input}).withResponse();
console.log(response.status, JSON.stringify(data ?? null, null, 2));
`;
}

function rawSample(r) {
  const params = [];
  const group = (name, list) => {
    if (list.length > 0)
      params.push(
        `${name}: { ${list.map((p) => `${/^[A-Za-z_$][\w$]*$/.test(p.name) ? p.name : jsString(p.name)}: ${jsLiteral(p.value)}`).join(', ')} }`,
      );
  };
  group('path', r.pathParams);
  group('query', r.query);
  // openapi-fetch takes header parameters in params.header, as the contract names them.
  group('header', r.headers);
  const init = [
    ...(params.length > 0 ? [`  params: { ${params.join(', ')} },`] : []),
    ...(r.body === undefined ? [] : [`  body: ${jsLiteral(r.body, '  ')},`]),
  ];
  return `import { createBaasClient } from 'baas-pix-contract';

${CLIENT_SETUP(r, { headerOptions: false })}
// openapi-fetch's client over the contract's paths: typed, not validated at run time.
const { data, error, response } = await baas.raw.${r.method}(${jsString(r.path)}${init.length > 0 ? `, {\n${init.join('\n')}\n}` : ''});
console.log(response.status, JSON.stringify(data ?? error ?? null, null, 2));
`;
}

function pythonSample(r) {
  const headers = [
    ...(r.bearer ? [`"Authorization": f"Bearer {os.environ['${SAMPLE_ENV.token}']}"`] : []),
    ...(r.accept ? [`"Accept": ${JSON.stringify(r.accept)}`] : []),
    ...r.headers.map((p) => `${JSON.stringify(p.name)}: ${JSON.stringify(String(p.value))}`),
  ];
  const path = pathWith(r, (p) => `{${JSON.stringify(String(p.value))}}`);
  const args = [
    `    f"{os.environ['${SAMPLE_ENV.baseUrl}']}${path}",`,
    ...(r.query.length > 0
      ? [`    params={${r.query.map((p) => `${JSON.stringify(p.name)}: ${pyLiteral(p.value)}`).join(', ')}},`]
      : []),
    `    headers={\n${headers.map((h) => `        ${h},\n`).join('')}    },`,
    // requests sets Content-Type: application/json for json=.
    ...(r.body === undefined ? [] : [`    json=${pyLiteral(r.body, '    ')},`]),
    '    timeout=30,',
  ];
  return `import os

import requests

response = requests.request(
    ${JSON.stringify(r.method)},
${args.join('\n')}
)
print(response.status_code, response.text)
`;
}

/** The four samples of one operation, as x-codeSamples entries. */
export function operationSamples(spec, operation) {
  const request = sampleRequest(spec, operation);
  return [
    { lang: 'Shell', label: SAMPLE_LABELS[0], source: curlSample(request) },
    { lang: 'TypeScript', label: SAMPLE_LABELS[1], source: clientSample(request) },
    { lang: 'TypeScript', label: SAMPLE_LABELS[2], source: rawSample(request) },
    { lang: 'Python', label: SAMPLE_LABELS[3], source: pythonSample(request) },
  ];
}

/** The bundled spec with x-codeSamples on every operation (a copy; the input is left as it is). */
export function withCodeSamples(spec) {
  const copy = structuredClone(spec);
  for (const operation of listOperations(copy)) {
    const node = resolvePointer(copy, operation.pointer);
    node['x-codeSamples'] = operationSamples(copy, operation);
  }
  return copy;
}
