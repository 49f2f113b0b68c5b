// The mock's dynamic responses conform and parse (dynamic-mock.property.ts): 10 responses for each
// documented status. The quick run: dynamic-mock.test.ts.
import { startRepeatableDynamicMock } from '../support/dynamic-mock.js';
import { dynamicMockResponses, SEED } from './dynamic-mock.property.js';

dynamicMockResponses('full', async () => {
  const own = await startRepeatableDynamicMock(SEED);
  return { url: own.url, preferDynamic: false, stop: own.stop };
});
