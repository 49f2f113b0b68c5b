#!/usr/bin/env node
// `npm run check:breaking`: the bundled spec against the last release's (a tag v<version>, or in a
// clone without tags the committed releases/openapi-<version>.json); fails on a breaking change
// unless the version is a new major. `--spec FILE --baseline FILE --baseline-version V` compare files.
// The check itself is checkBreaking (scripts/lib/breaking.mjs), which the tests call in process.
import { checkBreaking } from './lib/breaking.mjs';

process.exit(await checkBreaking(process.argv.slice(2)));
