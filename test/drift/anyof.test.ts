// collapseAnyOf: of a failed anyOf, only the branch the data was evidently aimed at is reported
// (a branch that failed on const, enum or not was never meant for it; of the rest, the fewest
// errors); with no such branch, the anyOf error itself. Errors around it are left as they are.
import { describe, expect, it } from 'vitest';
import { collapseAnyOf } from '../../src/drift/anyof.js';
import type { GeneratedValidatorError } from '../../src/generated/validators.js';

const err = (
  instancePath: string,
  schemaPath: string,
  keyword = schemaPath.split('/').at(-1)!,
): GeneratedValidatorError => ({ instancePath, schemaPath, keyword, params: {} });
const anyOf = (instancePath: string, schemaPath = '#/anyOf') => err(instancePath, schemaPath, 'anyOf');
const names = (errors: GeneratedValidatorError[]) => errors.map((e) => `${e.instancePath} ${e.schemaPath}`);

describe('collapseAnyOf', () => {
  it('keeps the one branch that failed on no discriminating keyword', () => {
    const errors = [
      err('/key_type', '#/anyOf/0/properties/key_type/const'),
      err('/key', '#/anyOf/0/properties/key/pattern'),
      err('/key', '#/anyOf/1/properties/key/pattern'),
      err('/key_type', '#/anyOf/2/properties/key_type/enum'),
      err('/key_type', '#/anyOf/3/properties/key_type/not'),
      anyOf(''),
    ];
    expect(names(collapseAnyOf(errors))).toEqual(['/key #/anyOf/1/properties/key/pattern']);
  });

  it('of several such branches, the one with the fewest errors; on a tie, the first', () => {
    const errors = [
      err('/a', '#/anyOf/0/properties/a/type'),
      err('/b', '#/anyOf/0/properties/b/type'),
      err('/a', '#/anyOf/1/properties/a/pattern'),
      err('/c', '#/anyOf/2/properties/c/pattern'),
      anyOf(''),
    ];
    expect(names(collapseAnyOf(errors))).toEqual(['/a #/anyOf/1/properties/a/pattern']);
    const tie = [err('/a', '#/anyOf/0/properties/a/type'), err('/a', '#/anyOf/1/properties/a/pattern'), anyOf('')];
    expect(names(collapseAnyOf(tie))).toEqual(['/a #/anyOf/0/properties/a/type']);
  });

  it("reads a failed oneOf the same way: a holder's document too long for its kind names that kind's rules only", () => {
    const oneOf = (instancePath: string) => err(instancePath, '#/components/schemas/BeneficiaryEntity/oneOf', 'oneOf');
    const errors = [
      err('/document', '#/components/schemas/BeneficiaryEntity/oneOf/0/properties/document/maxLength'),
      err('/document', '#/components/schemas/BeneficiaryEntity/oneOf/0/properties/document/pattern'),
      err('/document_type', '#/components/schemas/BeneficiaryEntity/oneOf/1/properties/document_type/const'),
      oneOf(''),
    ];
    expect(names(collapseAnyOf(errors))).toEqual([
      '/document #/components/schemas/BeneficiaryEntity/oneOf/0/properties/document/maxLength',
      '/document #/components/schemas/BeneficiaryEntity/oneOf/0/properties/document/pattern',
    ]);
    // Neither kind: the member that tells the branches apart is named, with the values it may take.
    const tag = (branch: number, allowedValue: string) => ({
      ...err('/document_type', `#/components/schemas/BeneficiaryEntity/oneOf/${branch}/properties/document_type/const`),
      params: { allowedValue },
    });
    const unknownKind = [
      tag(0, 'cpf'),
      err('/document', '#/components/schemas/BeneficiaryEntity/oneOf/0/properties/document/pattern'),
      tag(1, 'cnpj'),
      oneOf(''),
    ];
    expect(collapseAnyOf(unknownKind)).toEqual([
      expect.objectContaining({
        instancePath: '/document_type',
        keyword: 'enum',
        params: { allowedValues: ['cpf', 'cnpj'] },
      }),
    ]);
  });

  it('when every branch failed on a discriminating keyword, the anyOf error stands', () => {
    const errors = [
      err('/t', '#/anyOf/0/properties/t/const'),
      err('/u', '#/anyOf/0/properties/u/type'),
      err('/t', '#/anyOf/1/properties/t/enum'),
      anyOf(''),
    ];
    expect(names(collapseAnyOf(errors))).toEqual([' #/anyOf']);
  });

  it("errors from a $ref'd branch form a group of their own", () => {
    const errors = [
      err('/k', '#/allOf/0/anyOf/0/pattern'),
      err('/k', '#/allOf/0/anyOf/0/maxLength'),
      err('/k', '#/components/schemas/Email/format'),
      err('/k', '#/allOf/0/anyOf/1/pattern'),
      err('/k', '#/allOf/0/anyOf/1/type'),
      anyOf('', '#/allOf/0/anyOf'),
    ];
    expect(names(collapseAnyOf(errors))).toEqual(['/k #/components/schemas/Email/format']);
    // A schema path that only starts like the anyOf's is not one of its branches: they are one group.
    const lookalike = [
      err('/k', '#/allOf/0/anyOfX/0/pattern'),
      err('/k', '#/allOf/0/anyOfX/1/pattern'),
      err('/k', '#/allOf/0/anyOf/1/pattern'),
      err('/k', '#/allOf/0/anyOf/1/type'),
      err('/k', '#/allOf/0/anyOf/2/type'),
      anyOf('', '#/allOf/0/anyOf'),
    ];
    expect(names(collapseAnyOf(lookalike))).toEqual(['/k #/allOf/0/anyOf/2/type']);
  });

  it('takes as branches only the errors right before it, at or below its instance path; the others stay in place', () => {
    const errors = [
      err('/data/0/id', '#/properties/id/type'),
      err('/data/1/key', '#/anyOf/0/pattern'),
      err('/data/10', '#/required'),
      err('/data/1', '#/anyOf/0/required'),
      err('/data/1/id', '#/anyOf/0/type'),
      err('/data/1/key', '#/anyOf/1/pattern'),
      anyOf('/data/1'),
      err('/data/1/key', '#/properties/key/maxLength'),
    ];
    expect(names(collapseAnyOf(errors))).toEqual([
      '/data/0/id #/properties/id/type',
      '/data/1/key #/anyOf/0/pattern',
      '/data/10 #/required',
      '/data/1/key #/anyOf/1/pattern',
      '/data/1/key #/properties/key/maxLength',
    ]);
  });

  it('an anyOf at the start of the list has no branches before it and stands', () => {
    expect(names(collapseAnyOf([anyOf('/x'), err('/x', '#/anyOf/0/type')]))).toEqual([
      '/x #/anyOf',
      '/x #/anyOf/0/type',
    ]);
  });

  it("a second anyOf does not take the first one's errors as its branches", () => {
    const errors = [
      err('/a', '#/anyOf/0/type'),
      err('/a', '#/anyOf/1/const'),
      anyOf('/a'),
      err('/a', '#/properties/a/anyOf/0/pattern'),
      err('/a', '#/properties/a/anyOf/1/pattern'),
      err('/a', '#/properties/a/anyOf/1/minLength'),
      anyOf('/a', '#/properties/a/anyOf'),
    ];
    expect(names(collapseAnyOf(errors))).toEqual(['/a #/anyOf/0/type', '/a #/properties/a/anyOf/0/pattern']);
  });

  it('a branch that failed only on "not" was not meant for the data either', () => {
    const errors = [
      err('/t', '#/anyOf/0/properties/t/not'),
      err('/a', '#/anyOf/1/properties/a/type'),
      err('/b', '#/anyOf/1/properties/b/type'),
      anyOf(''),
    ];
    expect(names(collapseAnyOf(errors))).toEqual(['/a #/anyOf/1/properties/a/type', '/b #/anyOf/1/properties/b/type']);
  });

  it('branch 10 is not branch 1', () => {
    const errors = [
      err('/a', '#/anyOf/1/type'),
      err('/a', '#/anyOf/10/pattern'),
      err('/a', '#/anyOf/2/minLength'),
      err('/a', '#/anyOf/2/maxLength'),
      anyOf(''),
    ];
    expect(names(collapseAnyOf(errors))).toEqual(['/a #/anyOf/1/type']);
  });

  it('leaves a list without anyOf as it is', () => {
    const errors = [err('/a', '#/type'), err('', '#/required')];
    expect(collapseAnyOf(errors)).toEqual(errors);
  });
});
