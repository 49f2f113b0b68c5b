// The spec's `x-assumption` choices (and the root's `x-assumptions`): what the provider's description
// does not show and what this contract chose instead. The docs page and the README show them as a table.

export interface Assumption {
  /** JSON pointer of the node the choice concerns. */
  where: string;
  notShown: string;
  choice: string;
  why: string;
}

interface Given {
  'not-shown': string;
  choice: string;
  why: string;
}

/** Every assumption of the bundled spec, in document order, each `not-shown` once. */
export function collectAssumptions(spec: unknown): Assumption[] {
  const found: Assumption[] = [];
  const seen = new Set<string>();
  const walk = (node: unknown, pointer: string): void => {
    if (!node || typeof node !== 'object') return;
    // An array's entries are its indexes, so a list item's pointer ends in its index.
    for (const [key, value] of Object.entries(node)) {
      if (key === 'x-assumption' || key === 'x-assumptions') {
        for (const item of [value].flat() as Given[]) {
          if (seen.has(item['not-shown'])) continue;
          seen.add(item['not-shown']);
          found.push({ where: pointer || '/', notShown: item['not-shown'], choice: item.choice, why: item.why });
        }
      } else walk(value, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  };
  walk(spec, '');
  return found;
}

const cell = (text: string) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The Markdown table of every assumption: the README's and the docs' own. */
export function assumptionsTable(spec: unknown): string {
  const rows = collectAssumptions(spec).map((a) => `| ${cell(a.notShown)} | ${cell(a.choice)} | ${cell(a.why)} |`);
  return ['| Not shown in the description | Choice in this contract | Why |', '|---|---|---|', ...rows].join('\n');
}
