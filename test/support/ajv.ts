import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { spec } from './spec.js';

// The bundle is registered whole, so schemas are addressed by their JSON pointer in it.
const ajv = new Ajv2020.default({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(spec, 'bundle');

export function validatorFor(pointer: string) {
  const validate = ajv.getSchema(`bundle#${pointer}`);
  if (!validate) throw new Error(`no schema at ${pointer}`);
  return validate;
}

export function schemaErrors(pointer: string, value: unknown): string[] {
  const validate = validatorFor(pointer);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
