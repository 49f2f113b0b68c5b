// The server the Jest test talks to: the only line to change when the sandbox ships is the one
// below, e.g. `const { startSandbox } = require('baas-pix-contract/sandbox');` and `return startSandbox();`
// (anything with `url` and `stop()`).
const { startMock } = require('baas-pix-contract/testing');

exports.startBackend = () => startMock();
