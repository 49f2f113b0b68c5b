// SHA-256 and HMAC for the sandbox's handler (cursor.ts, oauth.ts), from @noble/hashes: audited,
// synchronous (a cursor is signed while a page is built) and without node:crypto, which a Worker may
// lack. The build bundles this module with them (noExternal in scripts/lib/build-code.mjs), so the
// package gains no dependency and its CommonJS build gets them as CommonJS (@noble/hashes 2 is ESM only).
export { hmac } from '@noble/hashes/hmac.js';
export { sha256 } from '@noble/hashes/sha2.js';
