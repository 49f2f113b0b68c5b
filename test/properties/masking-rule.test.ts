// masking-rule.property.ts, quick: a tenth of each property's runs (at least 10), same seed. The full runs:
// masking-rule.matrix.test.ts.
import { maskingRule } from './masking-rule.property.js';

maskingRule('quick');
