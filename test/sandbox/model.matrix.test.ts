// The sandbox against a plain model (model.property.ts): all 200 seeded runs. The quick runs: model.test.ts.
import { sandboxAgainstModel } from './model.property.js';

sandboxAgainstModel('full');
