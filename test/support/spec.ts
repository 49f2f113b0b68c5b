import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const bundledSpecFile = fileURLToPath(new URL('../../src/generated/openapi.json', import.meta.url));

// Parsed once per test file; the JSON bundle is what every tool reads.
export const spec = JSON.parse(readFileSync(bundledSpecFile, 'utf8')) as {
  info: { version: string; title: string };
  paths: Record<string, Record<string, any>>;
  components: Record<string, Record<string, any>>;
  [key: string]: unknown;
};

/** Follows a local `$ref` inside the bundle. */
export function deref<T = any>(node: any): T {
  let current = node;
  while (current && typeof current === 'object' && typeof current.$ref === 'string') {
    const path = (current.$ref as string).replace(/^#\//, '').split('/');
    current = path.reduce((acc: any, part) => acc?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
  }
  return current as T;
}

/** The kinds of key holder the contract allows: the constant `document_type` of each branch of `BeneficiaryEntity`. */
export const holderKinds = (): string[] =>
  spec.components.schemas!.BeneficiaryEntity!.oneOf.map(
    (branch: { properties: { document_type: { const: string } } }) => branch.properties.document_type.const,
  );
