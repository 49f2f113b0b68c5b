// Every example in the spec validates against its own schema (Ajv, JSON Schema 2020-12).
import { describe, expect, it } from 'vitest';
import { schemaErrors } from '../support/ajv.js';
import { deref, spec } from '../support/spec.js';

type Case = { where: string; pointer: string; value: unknown };
const cases: Case[] = [];
const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

for (const [path, item] of Object.entries(spec.paths)) {
  for (const [method, operation] of Object.entries<any>(item)) {
    const base = `/paths/${esc(path)}/${method}`;
    for (const [index, param] of (operation.parameters ?? []).entries()) {
      const p = deref<any>(param);
      const pointer = param.$ref ? `${param.$ref.slice(1)}/schema` : `${base}/parameters/${index}/schema`;
      cases.push({ where: `${operation.operationId} parameter ${p.name}`, pointer, value: p.example });
    }
    const bodies: [string, any][] = [['request', operation.requestBody]];
    for (const [status, response] of Object.entries<any>(operation.responses)) bodies.push([status, deref(response)]);
    for (const [label, holder] of bodies) {
      for (const [type, media] of Object.entries<any>(holder?.content ?? {})) {
        const schemaPointer = media.schema.$ref.slice(1);
        for (const [name, example] of Object.entries<any>(media.examples ?? {})) {
          cases.push({
            where: `${operation.operationId} ${label} ${type} ${name}`,
            pointer: schemaPointer,
            value: deref<any>(example).value,
          });
        }
      }
    }
  }
}

describe('examples', () => {
  it('exist for parameters, request bodies and every response', () => expect(cases.length).toBeGreaterThanOrEqual(25));
  it.each(cases)('$where validates', ({ pointer, value }) => {
    expect(value).toBeDefined();
    expect(schemaErrors(pointer, value)).toEqual([]);
  });
});

const cpfIsValid = (cpf: string): boolean => {
  if (!/^[0-9]{11}$/.test(cpf) || /^(\d)\1{10}$/.test(cpf)) return false;
  const digits = [...cpf].map(Number);
  const check = (length: number) => {
    const sum = digits.slice(0, length).reduce((acc, d, i) => acc + d * (length + 1 - i), 0);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  return check(9) === digits[9] && check(10) === digits[10];
};

describe('personal-data examples look real', () => {
  const json = JSON.stringify(spec);
  it('every CPF in an example has correct check digits', () => {
    const cpfs = [...json.matchAll(/"(?:document|DocumentNumber|example)":"([0-9]{11})"/g)].map((m) => m[1]!);
    expect(cpfs.length).toBeGreaterThan(0);
    for (const cpf of cpfs) expect(cpfIsValid(cpf), cpf).toBe(true);
  });
});
