// masking-rule.property.ts, every run. The quick runs: masking-rule.test.ts.
import { maskingRule } from './masking-rule.property.js';

maskingRule('full');
