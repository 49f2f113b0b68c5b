// The client never hangs (never-hangs.property.ts): all 300 seeded runs. The quick runs: never-hangs.test.ts.
import { neverHangs } from './never-hangs.property.js';

neverHangs('full');
