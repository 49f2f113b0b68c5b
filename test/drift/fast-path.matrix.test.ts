// fast-path.property.ts, every run. The quick runs: fast-path.test.ts.
import { fastPathProperties } from './fast-path.property.js';

fastPathProperties('full');
