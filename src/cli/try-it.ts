// The try-it panel of the docs page: one form per operation of the spec (its parameters and body,
// prefilled from the spec's examples, or from the sandbox's own accounts), Send, then the status,
// header fields and body of the answer. Redoc's community edition has no console of its own, so the
// page gets this one, outside Redoc's DOM: a drawer that follows the operation open in the page.
//
// Two ways to send, chosen by whoever serves the page:
// - `direct` (the sandbox's /docs): the page calls the API on its own origin with the token in the form
//   (a sandbox's synthetic token, printed in its banner anyway);
// - `relay` (`docs --serve`): the page posts what to send to the local process, which makes the call
//   with the credentials it holds. The page has no token field and never receives a credential.
// The two `fetch` calls of the page are the browser's, in the script below, not the package's sending:
// the page cannot load src/transport/, and needs none of it. `direct` calls the origin that served the
// page (the sandbox; a relative URL, so the browser's same-origin rules apply); `relay` posts to the
// local process, whose call of the API goes through the client and so the transport (docs-serve.ts).
// test/layers/sending.test.ts reads the package's code, not this text the page runs.
import { operations, type OperationName } from '../generated/operations.js';

/**
 * The header fields a page may not set, because the browser and the HTTP connection set them: the Fetch
 * standard's forbidden request-header names (https://fetch.spec.whatwg.org/#forbidden-request-header),
 * with every `Proxy-` and `Sec-` name. The sandbox's page refuses them before sending (a browser would
 * drop them without a word), and `docs --serve` refuses them from the page (sent on, Transfer-Encoding,
 * Upgrade or Expect made the call fail as a network failure, retried; Host went to the provider).
 */
export const FORBIDDEN_FIELD =
  /^(?:accept-charset|accept-encoding|access-control-request-headers|access-control-request-method|connection|content-length|cookie|cookie2|date|dnt|expect|host|keep-alive|origin|referer|set-cookie|te|trailer|transfer-encoding|upgrade|via|proxy-[!#$%&'*+.^_`|~0-9a-z-]*|sec-[!#$%&'*+.^_`|~0-9a-z-]*)$/i;

/** What the page and docs --serve say of a forbidden field, named (a field name of the list, never a value). */
export const forbiddenFieldRule = (name: string): string =>
  `${name} is set by the browser and the HTTP connection, not by the page (a forbidden request-header name of the Fetch standard): remove it and press Send again`;

export interface TryItField {
  name: string;
  in: 'query' | 'header';
  required: boolean;
  value: string;
}

export interface TryItOperation {
  operationId: OperationName;
  method: string;
  path: string;
  summary: string;
  fields: TryItField[];
  /** The JSON body the form starts with; undefined for an operation that takes none. */
  body: string | undefined;
  accept: string;
}

export type TryItMode =
  | { kind: 'direct'; token: string; note: string }
  | { kind: 'relay'; callUrl: string; note: string; allowWrites: boolean };

export interface TryItConfig {
  mode: TryItMode;
  operations: TryItOperation[];
}

/** What the page's script is given: the config, and the one rule of forbidden fields as its source. */
interface PageConfig extends TryItConfig {
  forbidden: { pattern: string; rule: string };
}

type Node = Record<string, unknown> & { $ref?: string };
type Spec = { paths?: Record<string, Record<string, unknown> | undefined> } & Record<string, unknown>;

function deref(spec: Spec, node: unknown): Node | undefined {
  let current = node as Node | undefined;
  for (let hops = 0; hops < 10 && typeof current?.$ref === 'string'; hops += 1) {
    current = current.$ref
      .replace(/^#\//, '')
      .split('/')
      .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], spec) as Node | undefined;
  }
  return current;
}

/** A parameter's or a media type's example: `example`, else the first of `examples`. */
function exampleOf(spec: Spec, node: Node | undefined): unknown {
  if (node?.example !== undefined) return node.example;
  const first = Object.values((node?.examples as Record<string, unknown> | undefined) ?? {})[0];
  return first === undefined ? undefined : deref(spec, first)?.value;
}

/** A parameter's name as the typed client takes it: camelCase (Account → account, User-Agent → userAgent). */
export const inputName = (name: string): string =>
  name
    .split(/[-_]/)
    .map((part, index) =>
      index === 0
        ? part.charAt(0).toLowerCase() + part.slice(1)
        : part.charAt(0).toUpperCase() + part.slice(1).toLowerCase(),
    )
    .join('');

/**
 * Every operation of the generated table, with its fields as the spec has them. A field starts with the
 * spec's example when it is required or its schema has a default (as the code samples do); any other
 * (a cursor, known only from an earlier page) starts empty. `prefill` puts values of the caller's own in
 * their place (the sandbox's accounts), keyed by the parameter's name as the client takes it (inputName).
 */
export function tryItOperations(spec: Spec, prefill: Readonly<Record<string, string>> = {}): TryItOperation[] {
  return (Object.keys(operations) as OperationName[]).map((operationId) => {
    const entry = operations[operationId];
    const operation = deref(spec, spec.paths?.[entry.path]?.[entry.method.toLowerCase()]) ?? {};
    const parameters = ((operation.parameters as unknown[] | undefined) ?? []).map((p) => deref(spec, p) ?? {});
    const fields: TryItField[] = parameters
      .filter((p) => p.in === 'query' || p.in === 'header')
      .map((p) => {
        const name = String(p.name);
        const schema = (p.schema as Node | undefined) ?? {};
        const required = p.required === true;
        const example = required || schema.default !== undefined ? (exampleOf(spec, p) ?? schema.default) : undefined;
        return {
          name,
          in: p.in as 'query' | 'header',
          required,
          value: prefill[inputName(name)] ?? (example === undefined ? '' : String(example)),
        };
      });
    const content = (deref(spec, operation.requestBody)?.content as Record<string, Node> | undefined) ?? {};
    const json = Object.keys(content).find((type) => /json/i.test(type));
    const example = json === undefined ? undefined : exampleOf(spec, content[json]);
    const accept: string[] = [];
    for (const response of Object.values((operation.responses as Record<string, unknown> | undefined) ?? {}))
      for (const type of Object.keys((deref(spec, response)?.content as object | undefined) ?? {}))
        if (!accept.includes(type)) accept.push(type);
    return {
      operationId,
      method: entry.method,
      path: entry.path,
      summary: String(operation.summary ?? operationId),
      fields,
      body: example === undefined ? undefined : JSON.stringify(example, null, 2),
      accept: accept.join(', '),
    };
  });
}

// The settings go into the page as base64 of their JSON: no text of the spec can then close the
// element or be read as markup, with no escaping rule of its own.
const encoded = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64');

/** The panel's markup, style and script, to go before the page's `</body>`. */
export function tryItSnippet(config: TryItConfig): string {
  // The rule's words with a placeholder the page replaces by the field's name.
  const page: PageConfig = {
    ...config,
    forbidden: { pattern: FORBIDDEN_FIELD.source, rule: forbiddenFieldRule('%s') },
  };
  return `<style>${STYLE}</style>
<script type="application/json" id="try-it-config">${encoded(page)}</script>
<script>${SCRIPT}</script>
`;
}

const STYLE = `
#try-it-toggle{position:fixed;right:16px;bottom:16px;z-index:10000;padding:10px 16px;border-radius:20px;border:1px solid #0044d4;background:#0044d4;color:#fff;font:600 14px sans-serif;cursor:pointer}
#try-it{position:fixed;top:0;right:0;bottom:0;width:min(560px,100vw);z-index:10001;background:#fff;color:#111;border-left:1px solid #ccc;box-shadow:-4px 0 16px rgba(0,0,0,.15);overflow:auto;font:14px sans-serif;padding:16px;box-sizing:border-box}
#try-it[hidden]{display:none}
#try-it h2{font-size:18px;margin:0 0 8px}
#try-it .note{color:#444;margin:0 0 12px;line-height:1.4}
#try-it .ops{display:flex;gap:6px;flex-wrap:wrap;margin-bottom:12px}
#try-it .ops button{padding:6px 10px;border:1px solid #999;border-radius:4px;background:#f4f4f4;cursor:pointer}
#try-it .ops button[aria-pressed=true]{background:#0044d4;color:#fff;border-color:#0044d4}
#try-it label{display:block;margin:8px 0 2px;font-weight:600}
#try-it label small{font-weight:400;color:#555}
#try-it input,#try-it textarea{width:100%;box-sizing:border-box;font:13px monospace;padding:4px}
#try-it textarea{min-height:180px}
#try-it .send{margin-top:12px;padding:8px 20px;background:#0a7a2f;color:#fff;border:0;border-radius:4px;font-weight:600;cursor:pointer}
#try-it pre{background:#f6f6f6;border:1px solid #ddd;padding:8px;white-space:pre-wrap;word-break:break-all;max-height:320px;overflow:auto;font:12px monospace}
#try-it .close{float:right;border:0;background:none;font-size:20px;cursor:pointer}
`;

// Plain DOM, no dependency: the page stays one file that works offline.
const SCRIPT = `(() => {
  const bytes = Uint8Array.from(atob(document.getElementById('try-it-config').textContent), (c) => c.charCodeAt(0));
  const config = JSON.parse(new TextDecoder().decode(bytes));
  const forbidden = new RegExp(config.forbidden.pattern, 'i');
  const make = (tag, props = {}, children = []) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (key === 'text') node.textContent = value;
      else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value);
    }
    for (const child of children) node.append(child);
    return node;
  };
  const panel = make('aside', { id: 'try-it', 'aria-label': 'Try it', hidden: '' });
  const toggle = make('button', { id: 'try-it-toggle', type: 'button', text: 'Try it', 'aria-controls': 'try-it' });
  const open = (show) => { panel.hidden = !show; toggle.hidden = show; };
  toggle.addEventListener('click', () => open(true));
  const forms = new Map();
  const buttons = new Map();
  const opsBar = make('div', { class: 'ops', role: 'group', 'aria-label': 'Operation' });
  const holder = make('div');
  let current;
  const select = (id) => {
    current = id;
    for (const [key, button] of buttons) button.setAttribute('aria-pressed', String(key === id));
    for (const [key, form] of forms) form.hidden = key !== id;
  };
  for (const op of config.operations) {
    const button = make('button', { type: 'button', text: op.method + ' ' + op.summary, 'data-operation': op.operationId, onclick: () => select(op.operationId) });
    buttons.set(op.operationId, button);
    opsBar.append(button);
    const inputs = [];
    const form = make('form', { 'data-operation': op.operationId, 'aria-label': op.summary });
    form.append(make('p', { class: 'note' }, [make('code', { text: op.method + ' ' + op.path })]));
    if (config.mode.kind === 'direct') {
      const token = make('input', { name: 'Authorization', value: config.mode.token, autocomplete: 'off', spellcheck: 'false' });
      inputs.push({ name: 'Authorization', in: 'token', input: token });
      form.append(make('label', {}, ['Bearer token ', make('small', { text: '(client 1 of this sandbox)' })]), token);
    }
    for (const field of op.fields) {
      const id = 'try-' + op.operationId + '-' + field.name;
      const input = make('input', { id, name: field.name, value: field.value, autocomplete: 'off', spellcheck: 'false' });
      const hint = field.in + (field.required ? ', required' : ', optional') +
        (field.in === 'header' && field.name.toLowerCase() === 'user-agent' && config.mode.kind === 'direct' ? '; a browser sends its own' : '');
      inputs.push({ name: field.name, in: field.in, input, required: field.required });
      form.append(make('label', { for: id }, [field.name + ' ', make('small', { text: '(' + hint + ')' })]), input);
    }
    const moreId = 'try-' + op.operationId + '-more-headers';
    const more = make('textarea', { id: moreId, name: 'more-headers', spellcheck: 'false', rows: '2', placeholder: 'Prefer: code=204' });
    more.style.minHeight = '2.5em';
    form.append(make('label', { for: moreId }, ['More header fields ', make('small', { text: '(one "Name: value" a line)' })]), more);
    let body;
    if (op.body !== undefined) {
      const id = 'try-' + op.operationId + '-body';
      body = make('textarea', { id, name: 'body', spellcheck: 'false' });
      body.value = op.body;
      form.append(make('label', { for: id, text: 'Body (JSON)' }), body);
    }
    const send = make('button', { type: 'submit', class: 'send', text: 'Send' });
    const status = make('output', { 'aria-label': 'Status', 'data-part': 'status' });
    const headers = make('pre', { 'aria-label': 'Response headers', 'data-part': 'headers' });
    const answer = make('pre', { 'aria-label': 'Response body', 'data-part': 'body' });
    form.append(send, make('h3', { text: 'Answer' }), make('p', {}, ['Status: ', status]), make('div', { text: 'Headers' }), headers, make('div', { text: 'Body' }), answer);
    const show = (code, text, fields, content) => {
      status.value = code;
      status.textContent = code + (text ? ' ' + text : '');
      headers.textContent = Object.entries(fields).map(([k, v]) => k + ': ' + v).join('\\n');
      let shown = content;
      try { shown = content ? JSON.stringify(JSON.parse(content), null, 2) : '(no body)'; } catch {}
      answer.textContent = shown;
      form.dataset.answered = String(code);
    };
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      send.disabled = true;
      status.textContent = 'sending…';
      headers.textContent = '';
      answer.textContent = '';
      delete form.dataset.answered;
      const query = new URLSearchParams();
      const sentHeaders = {};
      let token = '';
      for (const { name, in: where, input, required } of inputs) {
        const value = input.value;
        if (where === 'token') token = value.trim();
        else if (value === '' && !required) continue;
        else if (where === 'query') query.append(name, value);
        else if (where === 'header') sentHeaders[name] = value;
      }
      // A line that is not "Name: value" stops the call, named by its number (never shown: it may hold a
      // token); so does a field the browser sets itself, named (a name of the list, not a value).
      let wrong = '';
      more.value.split('\\n').forEach((line, index) => {
        if (line.trim() === '' || wrong) return;
        const colon = line.indexOf(':');
        const name = colon > 0 ? line.slice(0, colon).trim() : '';
        if (!/^[A-Za-z0-9!#$%&'*+.^_|~-]+$/.test(name))
          wrong = 'line ' + (index + 1) + ' of More header fields is not "Name: value", e.g. Prefer: code=204';
        else if (forbidden.test(name))
          wrong = 'line ' + (index + 1) + ' of More header fields: ' + config.forbidden.rule.replace('%s', name);
        else sentHeaders[name] = line.slice(colon + 1).trim();
      });
      if (wrong) {
        status.textContent = 'not sent: ' + wrong;
        send.disabled = false;
        return;
      }
      try {
        let response;
        if (config.mode.kind === 'direct') {
          const init = { method: op.method, headers: { Accept: op.accept, ...sentHeaders } };
          if (token) init.headers.Authorization = 'Bearer ' + token;
          if (body) { init.headers['Content-Type'] = 'application/json'; init.body = body.value; }
          const search = query.toString();
          response = await fetch(op.path + (search ? '?' + search : ''), init);
          const fields = {};
          response.headers.forEach((v, k) => { fields[k] = v; });
          show(response.status, response.statusText, fields, await response.text());
        } else {
          response = await fetch(config.mode.callUrl, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ operationId: op.operationId, query: Object.fromEntries(query), headers: sentHeaders, body: body ? body.value : undefined }),
          });
          const relayed = await response.json();
          if (relayed.status === undefined) show(response.status, 'from docs --serve', {}, JSON.stringify(relayed));
          else show(relayed.status, '', relayed.headers, relayed.body);
        }
      } catch (error) {
        // The server went away (stopped, or mid-call): whether the call reached the service is unknown.
        status.textContent = 'no answer: ' + error.message + (config.mode.kind === 'direct'
          ? ' (is the sandbox still running? Start it again and reload this page)'
          : ' (is docs --serve still running? Start it again and open the new address it prints: the secret in it changes)');
      } finally {
        send.disabled = false;
      }
    });
    forms.set(op.operationId, form);
    holder.append(form);
  }
  panel.append(
    make('button', { type: 'button', class: 'close', 'aria-label': 'Close the try-it panel', text: '×', onclick: () => open(false) }),
    make('h2', { text: 'Try it' }),
    make('p', { class: 'note', text: config.mode.note }),
    opsBar,
    holder,
  );
  // The operation open in the page (Redoc's route ends with the operationId in lower case) is the one shown.
  const follow = () => {
    const hash = location.hash.toLowerCase();
    const found = config.operations.find((op) => hash.endsWith('/' + op.operationId.toLowerCase()));
    if (found) select(found.operationId);
  };
  select(config.operations[0].operationId);
  follow();
  // Redoc moves between operations with the History API, which fires no event: the address is looked at.
  let seen = location.href;
  setInterval(() => { if (location.href !== seen) { seen = location.href; follow(); } }, 300);
  document.body.append(panel, toggle);
})();`;
