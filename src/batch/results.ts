// The results a batch yields. The item rides along for the caller but is no property of the result
// at all: a getter of a prototype the results share, reading a WeakMap. So logging a result in any
// way (JSON.stringify, util.inspect with showHidden, console.log('%o'), a spread) never prints the
// item's CPF or its body, while `result.item` gives it.
import type { BaasError } from '../errors.js';
import type { NaturalPersonUpdate, UpdateResult } from '../types.js';

/** One customer to update: the `Account` and `DocumentNumber` query parameters and the body. */
export interface UpdateItem {
  /** The customer account number, digits. */
  account: string;
  /** The customer's CPF, 11 digits. */
  documentNumber: string;
  /** The new values of the customer's data: the request body. */
  body: NaturalPersonUpdate;
}

// `index` and `item` are written out in both results rather than in a shared base, so that every type
// a result's declaration names is one a program can import.
/** An item updated: what the server answered. */
export interface UpdateSuccess<I = UpdateItem> {
  /** Always `true`: tells a success from a failure. */
  ok: true;
  /** The item's position in the input, from 0. */
  index: number;
  /** The item as given. Not a property of the result: JSON.stringify and util.inspect (showHidden too) of a result leave it out. */
  readonly item: I;
  /** The parsed answer, or undefined for an empty 200 or a 204. */
  result: UpdateResult | undefined;
}

/** An item that failed after its retries, and why. */
export interface UpdateFailure<I = UpdateItem> {
  /** Always `false`: tells a failure from a success. */
  ok: false;
  /** The item's position in the input, from 0. */
  index: number;
  /** The item as given. Not a property of the result: JSON.stringify and util.inspect (showHidden too) of a result leave it out. */
  readonly item: I;
  /**
   * Why it failed, after its retries: a BaasValidationError (nothing was sent), a BaasApiError, a
   * BaasTimeoutError, a BaasNetworkError, a BaasResponseError or a BaasAuthError. Redacted like every BaasError.
   */
  error: BaasError;
}

/** One result of `updateMany`, in completion order: `ok` tells which. */
export type UpdateManyResult<I = UpdateItem> = UpdateSuccess<I> | UpdateFailure<I>;

export function resultOf<I>(
  index: number,
  item: I,
  outcome: { ok: true; value: UpdateResult | undefined } | { ok: false; error: BaasError },
): UpdateManyResult<I> {
  const result: object = Object.create(RESULT);
  Object.assign(
    result,
    outcome.ok ? { index, ok: true, result: outcome.value } : { index, ok: false, error: outcome.error },
  );
  items.set(result, item);
  return result as UpdateManyResult<I>;
}

const items = new WeakMap<object, unknown>();
// The results' prototype: Object's, with the one getter. util.inspect shows an object's own members
// (showHidden: its hidden ones too), never a getter of its prototype; `constructor` is Object's, so a
// result still prints as a plain object.
const RESULT: object = Object.create(Object.prototype, {
  item: {
    get(this: object) {
      return items.get(this);
    },
    enumerable: false,
  },
});
