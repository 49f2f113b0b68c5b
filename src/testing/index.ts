export { startMock, bundledSpecPath, type RunningMock, type StartMockOptions } from './mock.js';
export { preferHeader, preferHeaders, type MockPreference } from './prefer.js';
