// The mock's dynamic responses conform and parse (dynamic-mock.property.ts): 10 responses for each
// documented status. The quick run: dynamic-mock.test.ts.
import { dynamicMockResponses } from './dynamic-mock.property.js';

dynamicMockResponses('full');
