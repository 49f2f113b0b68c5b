// The files the package ships in generated/ are found from wherever the code lands (src/, dist/,
// dist/sandbox/, a shared chunk): the nearest generated/ above, and a clear error when none has it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findGenerated, readBundledSpec, shippedFile } from '../../src/shipped-files.js';

const root = mkdtempSync(join(tmpdir(), 'shipped-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('findGenerated', () => {
  mkdirSync(join(root, 'dist', 'generated'), { recursive: true });
  mkdirSync(join(root, 'dist', 'sandbox', 'generated'), { recursive: true });
  writeFileSync(join(root, 'dist', 'generated', 'spec.json'), '{}');
  writeFileSync(join(root, 'dist', 'sandbox', 'generated', 'near.json'), '{}');
  writeFileSync(join(root, 'dist', 'generated', 'near.json'), '{}');

  it('finds a file in the generated/ folder above the start', () => {
    expect(findGenerated(join(root, 'dist', 'sandbox'), 'spec.json')).toBe(
      join(root, 'dist', 'generated', 'spec.json'),
    );
  });

  it('takes the nearest generated/ when several have the file', () => {
    expect(findGenerated(join(root, 'dist', 'sandbox'), 'near.json')).toBe(
      join(root, 'dist', 'sandbox', 'generated', 'near.json'),
    );
  });

  it('throws naming the file when no folder up to the root has it', () => {
    expect(() => findGenerated(join(root, 'dist', 'sandbox'), 'absent.json')).toThrow(/generated\/absent\.json/);
  });
});

describe('shippedFile and readBundledSpec', () => {
  it("find the repository's bundled spec and parse it", () => {
    expect(shippedFile('openapi.json')).toMatch(/generated[/\\]openapi\.json$/);
    expect((readBundledSpec() as { openapi: string }).openapi).toMatch(/^3\./);
  });

  it('throw for a file the package does not ship', () => {
    expect(() => shippedFile('no-such-file.json')).toThrow(/no-such-file\.json/);
  });
});
