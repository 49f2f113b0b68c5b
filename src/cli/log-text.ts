// Text from a request made safe for one line of the request log. The rules are src/redact.ts's
// (escapeControls; redactPath, which masks every digit of a run of eleven or more and reads
// percent-encoded separators and digits of any script, as a path carries them); named here as the
// request log has always called them.
export { escapeControls, redactPath as loggedPath } from '../redact.js';
