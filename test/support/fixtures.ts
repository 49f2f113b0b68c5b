import type { NaturalPersonUpdate, PixKey } from '../../src/types.js';
import { spec } from './spec.js';

/** The spec's own examples, so tests and docs show the same data. */
export const exampleValue = <T>(name: string): T => spec.components.examples![name].value as T;

export const VALID_CPF = '52998224725';
export const VALID_ACCOUNT = '300541976902';
export const SECRET_TOKEN = 'sk_live_9f8e7d6c5b4a3f2e1d0c';
export const fullUpdate = (): NaturalPersonUpdate => structuredClone(exampleValue<NaturalPersonUpdate>('FullUpdate'));
export const firstPageKeys = (): PixKey[] => structuredClone(exampleValue<{ data: PixKey[] }>('FirstPage').data);
