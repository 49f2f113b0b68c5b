// Collects every `x-assumption` (and the root's `x-assumptions`) of the bundled spec, in document order.
export function collectAssumptions(spec) {
  const found = [];
  const seen = new Set();
  const walk = (node, pointer) => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${pointer}/${i}`));
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'x-assumption' || key === 'x-assumptions') {
        for (const item of [value].flat()) {
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

const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The Markdown table of every assumption: the README's and the docs' own. */
export function assumptionsTable(spec) {
  const rows = collectAssumptions(spec).map((a) => `| ${cell(a.notShown)} | ${cell(a.choice)} | ${cell(a.why)} |`);
  return ['| Not shown in the description | Choice in this contract | Why |', '|---|---|---|', ...rows].join('\n');
}
