// The results a batch yields. The item rides along for the caller but is not enumerable, so logging
// a result (JSON.stringify, util.inspect, console.log) never prints the item's CPF or its body.
import type { BaasError } from '../errors.js';
import type { NaturalPersonUpdate, UpdateResult } from '../types.js';

/** One customer to update: the `Account` and `DocumentNumber` query parameters and the body. */
export interface UpdateItem {
  /** The customer account number, digits. */
  account: string;
  /** The customer's CPF, 11 digits. */
  documentNumber: string;
  body: NaturalPersonUpdate;
}

// `index` and `item` are written out in both results rather than in a shared base, so that every type
// a result's declaration names is one a program can import.
export interface UpdateSuccess<I = UpdateItem> {
  ok: true;
  /** The item's position in the input, from 0. */
  index: number;
  /** The item as given. Not enumerable: JSON.stringify and util.inspect of a result leave it out. */
  readonly item: I;
  /** The parsed answer, or undefined for an empty 200 or a 204. */
  result: UpdateResult | undefined;
}

export interface UpdateFailure<I = UpdateItem> {
  ok: false;
  /** The item's position in the input, from 0. */
  index: number;
  /** The item as given. Not enumerable: JSON.stringify and util.inspect of a result leave it out. */
  readonly item: I;
  /**
   * Why it failed, after its retries: a ValidationError (nothing was sent), an ApiError, a
   * TimeoutError, a NetworkError, a ResponseError or an AuthError. Redacted like every BaasError.
   */
  error: BaasError;
}

export type UpdateManyResult<I = UpdateItem> = UpdateSuccess<I> | UpdateFailure<I>;

export function resultOf<I>(
  index: number,
  item: I,
  outcome: { ok: true; value: UpdateResult | undefined } | { ok: false; error: BaasError },
): UpdateManyResult<I> {
  const result = outcome.ok ? { index, ok: true, result: outcome.value } : { index, ok: false, error: outcome.error };
  Object.defineProperty(result, 'item', { value: item, enumerable: false });
  return result as UpdateManyResult<I>;
}
