// The mock's dynamic responses conform and parse (dynamic-mock.property.ts), quick: 2 responses for
// each documented status. The full 10 each: dynamic-mock.matrix.test.ts.
import { dynamicMockResponses } from './dynamic-mock.property.js';

dynamicMockResponses('quick');
