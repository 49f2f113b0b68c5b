// The drift checker on its own, case by case with verify: the response that shows each break,
// checked alone, is flagged at the same pointers; controls are clean. A repeated cursor needs two
// responses, so the per-response checker cannot see it (verify's job).
import { describe, expect, it } from 'vitest';
import { loadDriftChecker } from '../../src/drift/index.js';
import { startDriftServer, TOKEN } from '../support/drift-server.js';
import { BREAKS, CONTROLS, type DriftCase } from './cases.js';

const FIRST_CURSOR = 'eyJvZmZzZXQiOjJ9';

async function responseShowing(c: DriftCase): Promise<Response> {
  const server = await startDriftServer(c.breakIt);
  try {
    const url = new URL(`${server.url}/v2/api/pix/keys/list-keys`);
    const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` };
    if (c.shownBy === 2) url.searchParams.set('cursor', FIRST_CURSOR);
    if (c.shownBy === 'bad-limit') url.searchParams.set('limit', '201');
    if (c.shownBy === 'no-token') delete headers.authorization;
    const response = await fetch(url, { headers });
    // Read before the server closes.
    return new Response(await response.arrayBuffer(), { status: response.status, headers: response.headers });
  } finally {
    await server.close();
  }
}

async function check(c: DriftCase) {
  const checker = await loadDriftChecker();
  const response = await responseShowing(c);
  const contentType = response.headers.get('content-type');
  const text = await response.text();
  let body: unknown = text;
  let bodyUnparsable = false;
  if (/json/.test(contentType ?? '')) {
    try {
      body = JSON.parse(text);
    } catch {
      bodyUnparsable = true;
    }
  }
  return checker.check({
    operationId: 'listPixKeys',
    status: response.status,
    headers: response.headers,
    contentType,
    body,
    bodyUnparsable,
  });
}

describe('drift checker: drift matrix', () => {
  for (const c of BREAKS.filter((b) => !b.stateful)) {
    it(`flags "${c.name}" like verify does`, async () => {
      const problems = await check(c);
      expect(problems.map((p) => ({ part: p.part, pointer: p.pointer }))).toEqual(c.expected);
      for (const p of problems) expect(p.rule).toMatch(/^must |^is /);
    });
  }
  for (const c of BREAKS.filter((b) => b.stateful)) {
    it(`cannot see "${c.name}" in one response (it takes verify's walk)`, async () => {
      expect(await check(c)).toEqual([]);
    });
  }
  for (const c of CONTROLS) {
    it(`flags nothing on the control "${c.name}"`, async () => {
      expect(await check(c)).toEqual([]);
    });
  }
});
