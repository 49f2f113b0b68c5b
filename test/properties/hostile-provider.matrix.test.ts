// hostile-provider.property.ts, every run. The quick runs: hostile-provider.test.ts.
import { hostileProvider } from './hostile-provider.property.js';

hostileProvider('full');
