// request-log-hostile.property.ts, every run. The quick runs: request-log-hostile.test.ts.
import { requestLogHostileProperty } from './request-log-hostile.property.js';

requestLogHostileProperty('full');
