// The docs show a server's description as plain text (Redoc's Servers card): Markdown in it reaches the
// reader as raw backticks (`{base_url}` showed its backticks). So a server description holds none.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';

const MARKDOWN = /[`*[\]]|^#/m;

describe("the spec's servers", () => {
  it('have descriptions in plain text, without Markdown', () => {
    const spec = JSON.parse(readFileSync(join(repoRoot, 'src/generated/openapi.json'), 'utf8')) as {
      servers: { url: string; description?: string }[];
    };
    expect(spec.servers.length).toBeGreaterThan(0);
    expect(MARKDOWN.test('names it as `{base_url}`')).toBe(true);
    const marked = spec.servers.filter((server) => MARKDOWN.test(server.description ?? ''));
    expect(marked.map((server) => `${server.url}: ${server.description}`)).toEqual([]);
  });
});
