// What updateMany and exportKeys return, by type: `await` gives the summary, `for await` gives each
// result, and a plain `for` does not compile (it is a TypeError at run time too).
import { describe, expectTypeOf, it } from 'vitest';
import {
  createBaasClient,
  exportKeys,
  updateMany,
  type ExportSummary,
  type UpdateFailure,
  type UpdateItem,
  type UpdateManyResult,
  type UpdateManySummary,
} from '../../src/index.js';
import type { PixKey } from '../../src/types.js';

const client = createBaasClient({ baseUrl: 'https://api.baas.example', token: 't' });
const items: UpdateItem[] = [];

describe('updateMany types', () => {
  it('awaits to the summary, with the failures typed by the item', async () => {
    expectTypeOf(updateMany(client, items)).resolves.toEqualTypeOf<UpdateManySummary<UpdateItem>>();
    const summary = await updateMany(client, items);
    expectTypeOf(summary.ok).toBeNumber();
    expectTypeOf(summary.peakConcurrency).toBeNumber();
    expectTypeOf(summary.failures).toEqualTypeOf<UpdateFailure<UpdateItem>[]>();
    const tagged = [{ ...items[0]!, row: 3 }];
    const mine = await updateMany(client, tagged);
    expectTypeOf(mine.failures[0]!.item.row).toBeNumber();
  });

  it('iterates to each result', async () => {
    for await (const result of updateMany(client, items)) {
      expectTypeOf(result).toEqualTypeOf<UpdateManyResult<UpdateItem>>();
      if (result.ok) expectTypeOf(result.result).not.toBeAny();
      else expectTypeOf(result.error.message).toBeString();
    }
  });

  it('is a Promise, so a floating run is caught by lint rules for floating promises', () => {
    expectTypeOf(updateMany(client, items)).toMatchTypeOf<Promise<UpdateManySummary>>();
  });

  it('refuses a plain for', () => {
    // @ts-expect-error a run is async: `for await` or `await`
    for (const _ of updateMany(client, items)) void _;
  });
});

describe('exportKeys types', () => {
  it('awaits to the summary and iterates to each key', async () => {
    expectTypeOf(exportKeys(client)).resolves.toEqualTypeOf<ExportSummary>();
    expectTypeOf<ExportSummary['after']>().toEqualTypeOf<string | undefined>();
    for await (const key of exportKeys(client)) expectTypeOf(key).toEqualTypeOf<PixKey>();
  });

  it('refuses a plain for', () => {
    // @ts-expect-error a run is async: `for await` or `await`
    for (const _ of exportKeys(client)) void _;
  });
});
