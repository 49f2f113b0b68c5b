// Validators, types and mock agree (agreement.property.ts), quick: a tenth of the runs, same seed,
// against npm test's shared Prism. The full runs: agreement.matrix.test.ts.
import { mockUrl } from '../support/mock.js';
import { agreementProperties } from './agreement.property.js';

agreementProperties('quick', mockUrl);
