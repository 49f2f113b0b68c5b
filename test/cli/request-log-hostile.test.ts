// request-log-hostile.property.ts, quick: a tenth of the runs, same seed. The full runs: request-log-hostile.matrix.test.ts.
import { requestLogHostileProperty } from './request-log-hostile.property.js';

requestLogHostileProperty('quick');
