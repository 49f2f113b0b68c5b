// The production guide's logLevel row says what each level adds; it is read from levelOf here, so a
// stranger who sets `logLevel: 'info'` and sees nothing for a call that succeeded finds why in the guide.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { type BaasEvent, levelOf } from '../../src/logging/events.js';

const row = (path: string, start: string) =>
  readFileSync(join(repoRoot, path), 'utf8')
    .split('\n')
    .find((line) => line.startsWith(start))!;

// One event of each kind the row names, and the words it names it with (English, Portuguese).
const NAMED: [Partial<BaasEvent>, string, string][] = [
  [{ type: 'error' }, '`error`, a call that failed', '`error`, uma chamada que falhou'],
  [{ type: 'token', action: 'failed' }, '`warn`, a token request that failed', '`warn`, um pedido de token que falhou'],
  [{ type: 'drift' }, 'and a response that drifted', 'e uma resposta que divergiu'],
  [{ type: 'retry' }, '`info`, each retry', '`info`, cada nova tentativa'],
  [{ type: 'request' }, '`debug`, each attempt sent', '`debug`, cada tentativa enviada'],
  [{ type: 'response' }, 'each answer (with its headers)', 'cada resposta (com os cabeçalhos)'],
  [{ type: 'token', action: 'fetched' }, 'each token fetched or dropped', 'cada token obtido ou descartado'],
  [{ type: 'token', action: 'invalidated' }, 'each token fetched or dropped', 'cada token obtido ou descartado'],
];

describe("the production guide's logLevel row", () => {
  it('names each event at the level levelOf logs it at, in both languages', () => {
    const english = row('docs/guides/production.md', '| `logLevel` |');
    const portuguese = row('docs/guias/production.md', '| `logLevel` |');
    for (const [event, en, pt] of NAMED) {
      const level = levelOf(event as BaasEvent);
      // The level that names an event is the nearest level name before its words (or starting them).
      expect(english, en).toContain(en);
      expect(portuguese, pt).toContain(pt);
      const levels = ['error', 'warn', 'info', 'debug'];
      const nearest = (text: string, words: string) =>
        levels
          .map((name) => [name, text.slice(0, text.indexOf(words) + words.length).lastIndexOf(`\`${name}\`,`)] as const)
          .sort((a, b) => b[1] - a[1])[0]![0];
      expect(nearest(english, en), en).toBe(level);
      expect(nearest(portuguese, pt), pt).toBe(level);
    }
  });
});
