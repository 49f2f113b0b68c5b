// One place sends: src/transport/ (its attempt's one timer, the redirect rule, the byte limit, the one
// loop; DEVELOPERS.md, "one place for each guard"). A rule over every module of src/ outside it, not a
// list of files: wherever a module calls a fetch, or takes an HTTP client (undici, or node:http(s)'s
// `request`/`get`), the line says why that is no copy of the transport, in a comment right above it (or at
// its end) that starts `Sends outside the transport:` and gives a reason. Without one the test fails, and
// so does a marker above nothing (an allowance outliving its code). What legitimately sends outside:
// the sandbox's handler called in process (MSW), the fetch the transport's attempt is given (the TLS
// adapter), the request log's forwarding to a server of ours.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { fetchCallsOf, tokenize } from '../../scripts/lib/source-tokens.mjs';
import { sourceFiles } from '../support/source-scan.js';

const MARKER = /\/\/.*\bSends outside the transport:\s*(\S.*)?$/;
const HTTP_MODULES = new Set(['node:http', 'node:https', 'http', 'https']);
// A type's `import('undici')` loads nothing (`typeof import('undici')`).
const TYPE_BEFORE = new Set(['typeof', 'as', ':', '<', '|', '&', 'extends', 'keyof']);

interface Sending {
  line: number;
  what: string;
}

/** Each place a source text sends or takes an HTTP client, with its line. */
function sendingIn(text: string): Sending[] {
  const tokens = tokenize(text) as {
    type: string;
    text: string;
    value?: string;
    line: number;
    start: number;
    end: number;
  }[];
  const found: Sending[] = [];
  // The text with its comments blanked (newlines kept), so a call is found where the code has it.
  let code = '';
  let at = 0;
  for (const token of tokens) {
    code += text.slice(at, token.start).replace(/[^\n]/g, ' ') + text.slice(token.start, token.end);
    at = token.end;
  }
  let from = 0;
  for (const call of fetchCallsOf(text) as string[]) {
    const index = code.indexOf(call, from);
    from = index + call.length;
    found.push({ line: code.slice(0, index).split('\n').length, what: call });
  }
  tokens.forEach((token, i) => {
    if (token.type !== 'string') return;
    if (token.value === 'undici') {
      const typeOnly = tokens[i - 2]?.text === 'import' && TYPE_BEFORE.has(tokens[i - 3]?.text ?? '');
      if (!typeOnly) found.push({ line: token.line, what: 'loads undici' });
    } else if (HTTP_MODULES.has(token.value ?? '') && tokens[i - 1]?.text === 'from') {
      // The bindings of `import … from 'node:http'`: only named ones other than request and get send nothing.
      let k = i - 2;
      while (k > 0 && tokens[k]!.text !== 'import') k -= 1;
      const bindings = tokens.slice(k + 1, i - 1).map((t) => t.text);
      const named = bindings[0] === '{' || (bindings[0] === 'type' && bindings[1] === '{');
      if (!named || bindings.includes('request') || bindings.includes('get'))
        found.push({ line: token.line, what: `an HTTP client of ${token.value}` });
    }
  });
  return found.sort((a, b) => a.line - b.line);
}

/** The line of the marker that allows a sending at `line` (1-based): its own, or the comment block above it. */
function markerFor(lines: string[], line: number): number | undefined {
  if (MARKER.test(lines[line - 1] ?? '')) return line;
  for (let k = line - 1; k >= 1 && /^\s*\/\//.test(lines[k - 1]!); k -= 1) if (MARKER.test(lines[k - 1]!)) return k;
  return undefined;
}

/** What the rule says of one text: sendings without a reason, markers without a reason or above nothing. */
function unexplained(text: string): string[] {
  const lines = text.split('\n');
  const problems: string[] = [];
  const used = new Set<number>();
  for (const sending of sendingIn(text)) {
    const marker = markerFor(lines, sending.line);
    if (marker === undefined) problems.push(`${sending.line}: ${sending.what} with no "Sends outside the transport:"`);
    else if (MARKER.exec(lines[marker - 1]!)?.[1] === undefined)
      problems.push(`${marker}: "Sends outside the transport:" gives no reason`);
    else used.add(marker);
  }
  lines.forEach((line, index) => {
    if (MARKER.test(line) && !used.has(index + 1) && MARKER.exec(line)?.[1] !== undefined)
      problems.push(`${index + 1}: "Sends outside the transport:" above no sending`);
  });
  return problems;
}

describe('sending outside src/transport/', () => {
  it('finds each way to send and each HTTP client taken, and no mere mention or type', () => {
    const text = [
      "import { createServer, type IncomingMessage } from 'node:http';",
      "import { request as httpRequest } from 'node:http';",
      "import * as https from 'node:https';",
      "import { get } from 'https';",
      "type Undici = typeof import('undici');",
      "const undici = await importOptional('undici');",
      'const answer = await fetch(url, init);',
      "// fetch(url) and 'undici' in a comment",
      "const words = 'needs undici';",
    ].join('\n');
    expect(sendingIn(text)).toEqual([
      { line: 2, what: 'an HTTP client of node:http' },
      { line: 3, what: 'an HTTP client of node:https' },
      { line: 4, what: 'an HTTP client of https' },
      { line: 6, what: 'loads undici' },
      { line: 7, what: 'fetch(url, init)' },
    ]);
  });

  it('takes a reason right above or at the end of the line, and fails without one or above nothing', () => {
    const allowed = [
      '// Sends outside the transport: the handler is called in process.',
      '// (a second line of the same comment)',
      'return handler.fetch(request);',
      'return other.fetch(request); // Sends outside the transport: the same, in one line.',
    ].join('\n');
    expect(unexplained(allowed)).toEqual([]);
    expect(unexplained('const a = 1;\n\nreturn handler.fetch(request);')).toEqual([
      '3: handler.fetch(request) with no "Sends outside the transport:"',
    ]);
    // A blank line ends the comment block above: the marker no longer covers the call.
    expect(unexplained('// Sends outside the transport: why.\n\nfetch(url);')).toEqual([
      '3: fetch(url) with no "Sends outside the transport:"',
      '1: "Sends outside the transport:" above no sending',
    ]);
    expect(unexplained('// Sends outside the transport:\nfetch(url);')).toEqual([
      '1: "Sends outside the transport:" gives no reason',
    ]);
  });

  it('every module of src/ outside the transport says why it sends where it does', async () => {
    const files = (await sourceFiles('src')).filter((file) => !file.startsWith('src/transport/'));
    expect(files.length).toBeGreaterThan(100);
    const problems: string[] = [];
    const allowed: string[] = [];
    for (const file of files) {
      const text = await readFile(join(repoRoot, file), 'utf8');
      for (const problem of unexplained(text)) problems.push(`${file}:${problem}`);
      if (sendingIn(text).length > 0) allowed.push(file);
    }
    expect(problems, 'send through src/transport/, or say why this is no copy of it').toEqual([]);
    // The rule reads real code: the places that legitimately send are found (and explained).
    expect(allowed).toEqual(expect.arrayContaining(['src/sandbox/msw.ts', 'src/tls/adapt.ts', 'src/tls/agent.ts']));
  });
});
