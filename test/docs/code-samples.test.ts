// x-codeSamples in the bundled spec: every operation has the four samples (curl, TypeScript with
// createBaasClient, TypeScript with the raw openapi-fetch client, Python requests) in both bundles,
// made by the generator from the operation table and the examples (so never edited by hand), each
// naming the operation, every required parameter's example, and no credential but the environment's.
// Running each against a sandbox: code-samples.matrix.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { listOperations } from '../../scripts/lib/operations.mjs';
import { SAMPLE_ENV, SAMPLE_LABELS, withCodeSamples } from '../../scripts/lib/code-samples.mjs';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { operationNames } from '../../src/generated/operations.js';
import { deref, spec } from '../support/spec.js';

type Sample = { lang: string; label: string; source: string };
const yamlSpec = parse(readFileSync(join(repoRoot, 'src/generated/openapi.yaml'), 'utf8'));
const operations = listOperations(spec);
const samplesOf = (document: any, op: (typeof operations)[number]): Sample[] =>
  document.paths[op.path][op.method.toLowerCase()]['x-codeSamples'] ?? [];

describe('x-codeSamples', () => {
  it('covers every operation of the table', () => {
    expect(operations.map((op) => op.operationId).sort()).toEqual([...operationNames].sort());
  });

  it.each(operations.map((op) => [op.operationId, op] as const))(
    '%s has the four samples, the same in openapi.json and openapi.yaml',
    (_, op) => {
      const samples = samplesOf(spec, op);
      expect(samples.map((s) => s.label)).toEqual(SAMPLE_LABELS);
      expect(samplesOf(yamlSpec, op)).toEqual(samples);
    },
  );

  it('are what the generator derives from the spec without them (no sample edited by hand)', () => {
    const bare = structuredClone(spec);
    for (const op of operations) delete bare.paths[op.path]![op.method.toLowerCase()]['x-codeSamples'];
    const derived = withCodeSamples(bare);
    for (const op of operations) expect(samplesOf(derived, op)).toEqual(samplesOf(spec, op));
  });

  it.each(operations.map((op) => [op.operationId, op] as const))(
    "%s: each sample names the operation and every required parameter's example",
    (_, op) => {
      const [curl, client, raw, python] = samplesOf(spec, op);
      for (const sample of [curl!, raw!, python!]) expect(sample.source).toContain(op.path);
      expect(client!.source).toContain(`baas.${op.operationId}(`);
      expect(raw!.source).toContain(`baas.raw.${op.method}(`);
      expect(curl!.source).toContain(`-X ${op.method}`);
      expect(python!.source).toContain(`"${op.method}"`);
      for (const p of op.parameters.filter((parameter) => parameter.required)) {
        const example = String(
          deref(
            spec.paths[op.path]![op.method.toLowerCase()].parameters.find((node: any) => deref(node).name === p.name),
          ).example,
        );
        for (const sample of samplesOf(spec, op))
          expect(sample.source, `${sample.label}: ${p.name}`).toContain(example);
      }
    },
  );

  it('take the service root and the token from the environment, never a literal credential', () => {
    for (const op of operations)
      for (const sample of samplesOf(spec, op)) {
        expect(sample.source, sample.label).toContain(SAMPLE_ENV.baseUrl);
        expect(sample.source, sample.label).toContain(SAMPLE_ENV.token);
        expect(sample.source, sample.label).not.toMatch(/sbx_|Bearer [A-Za-z0-9]/);
      }
  });
});
