// The sandbox against a plain model (model.property.ts), quick: 20 of the 200 seeded runs. All of
// them: model.matrix.test.ts.
import { sandboxAgainstModel } from './model.property.js';

sandboxAgainstModel('quick');
