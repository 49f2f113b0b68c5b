#!/usr/bin/env node
import { buildDocs, docsPath } from './lib/docs.mjs';

await buildDocs();
console.log(`docs written to ${docsPath}`);
