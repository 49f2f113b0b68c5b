// How the package writes words in its messages: a count (digits grouped as in English, 1,000, and the noun
// in the singular for one: "1 page", "2 pages"), and the name that was meant when one is mistyped ("did
// you mean --port?", "did you mean timeoutMs?"). One place, so the command line, the client and the
// sandbox agree.
export const n = (value: number): string => value.toLocaleString('en-US');

/** `1 page`, `2 pages`, `1,000 more accounts`. */
export const plural = (count: number, one: string, many = `${one}s`): string =>
  `${n(count)} ${count === 1 ? one : many}`;

/** Edit distance with adjacent transpositions (`--prot` is one step from `--port`). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  return d[a.length]![b.length]!;
}

/** The name of `names` closest to `name`, if one is close enough to be what was meant. */
export function closestName(name: string, names: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of names) {
    // A prefix of a name, or a name with something added, is as close as a typo.
    const distance = candidate.startsWith(name) || name.startsWith(candidate) ? 1 : editDistance(name, candidate);
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? best.name : undefined;
}

/** A member of an options object named like one the reader takes, and the one it takes. */
export interface MisspeltMember {
  given: string;
  meant: string;
}

/**
 * The members of `given` that look like a mistyped one of `known`: the same letters in another case
 * (`baseURL`, `Account`), at most `maxEdits` edits away (`timeout` for timeoutMs, `userAgnet`), or an
 * alias (the command line's `accounts` for accountsPerClient). A JavaScript caller has no type check, and
 * such a member would otherwise be ignored without a word. A member far from every name is left alone:
 * spreading a wider object into the options is fine (and its names may be data, never to be shown).
 */
export function misspeltMembers(
  given: object,
  known: readonly string[],
  { maxEdits = 2, aliases = {} }: { maxEdits?: number; aliases?: Readonly<Record<string, string>> | undefined } = {},
): MisspeltMember[] {
  const found: MisspeltMember[] = [];
  for (const name of Object.keys(given)) {
    if (known.includes(name)) continue;
    let meant = Object.hasOwn(aliases, name) ? aliases[name] : undefined;
    let best = maxEdits + 1;
    for (const candidate of meant === undefined ? known : []) {
      const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
      if (distance < best) [best, meant] = [distance, candidate];
    }
    if (meant !== undefined) found.push({ given: name, meant });
  }
  return found;
}
