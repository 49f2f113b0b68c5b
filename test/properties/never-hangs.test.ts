// The client never hangs (never-hangs.property.ts), quick: 30 seeded runs and the answers that once
// left a call pending. The full 300 runs: never-hangs.matrix.test.ts.
import { neverHangs } from './never-hangs.property.js';

neverHangs('quick');
