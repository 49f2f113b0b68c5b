// Validators, types and mock agree (agreement.property.ts), every run, against a Prism mock of this
// file's own (the matrix has no shared one). The quick runs: agreement.test.ts.
import { afterAll, beforeAll } from 'vitest';
import { type RunningMock, startMock } from '../../src/testing/mock.js';
import { agreementProperties } from './agreement.property.js';

let mock: RunningMock | undefined;
// Prism's start is seconds of CPU: minutes on a loaded machine, never a failure.
beforeAll(async () => {
  mock = await startMock({ readyTimeoutMs: 300_000 });
});
afterAll(() => mock?.stop());

agreementProperties('full', () => mock!.url);
