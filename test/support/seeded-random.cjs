// Preloaded (node --require) into a child process: Math.random becomes a seeded generator
// (mulberry32, seed from BAAS_RANDOM_SEED), so whatever the child draws at random is the same on
// every run. Used to make Prism's dynamic mode repeatable *and* varied; see dynamic-mock.ts.
'use strict';
const text = process.env.BAAS_RANDOM_SEED || 'baas-pix-contract';
let hash = 1779033703 ^ text.length;
for (let i = 0; i < text.length; i += 1) {
  hash = Math.imul(hash ^ text.charCodeAt(i), 3432918353);
  hash = (hash << 13) | (hash >>> 19);
}
let state = hash >>> 0;
Math.random = function seededRandom() {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
