// secrets.property.ts, every run. The quick runs: secrets.test.ts.
import { spanSecrets } from './secrets.property.js';

spanSecrets('full');
