// hostile-provider.property.ts, quick: a tenth of each property's runs (at least 10), same seed. The full runs:
// hostile-provider.matrix.test.ts.
import { hostileProvider } from './hostile-provider.property.js';

hostileProvider('quick');
