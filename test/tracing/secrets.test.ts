// secrets.property.ts, quick: a tenth of each property's runs, same seed. The full runs: secrets.matrix.test.ts.
import { spanSecrets } from './secrets.property.js';

spanSecrets('quick');
