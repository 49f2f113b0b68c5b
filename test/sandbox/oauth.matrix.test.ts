// oauth.property.ts, every run. The quick runs: oauth.test.ts.
import { oauthHostileProperty } from './oauth.property.js';

oauthHostileProperty('full');
