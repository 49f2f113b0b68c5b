#!/usr/bin/env node
// The `baas-pix-contract` bin (dist/cli.js). `npm start` and `npm run mock` run this same file.
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));
