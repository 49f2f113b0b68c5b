// fast-path.property.ts, quick: a tenth of each property's runs, same seed. The full runs: fast-path.matrix.test.ts.
import { fastPathProperties } from './fast-path.property.js';

fastPathProperties('quick');
