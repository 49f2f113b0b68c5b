// The mock's dynamic responses conform and parse (dynamic-mock.property.ts), quick: 2 responses for
// each documented status from npm test's shared Prism, asked for with `Prefer: dynamic=true`. The
// full 10 each, from a seeded mock of its own: dynamic-mock.matrix.test.ts.
import { mockUrl } from '../support/mock.js';
import { dynamicMockResponses } from './dynamic-mock.property.js';

dynamicMockResponses('quick', () => ({ url: mockUrl(), preferDynamic: true }));
