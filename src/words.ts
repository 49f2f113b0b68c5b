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

/**
 * The first member of an options object that `where` does not take, said with the option meant
 * (`baseURL` → baseUrl, `timeout` → timeoutMs) or the list of those it takes; undefined when all are
 * known. A JavaScript caller has no type check, and a mistyped option would otherwise be ignored without
 * a word. The member's name is shown only when it is a plain identifier: a name is not a place for data.
 */
export function unknownOptionProblem(where: string, options: object, known: readonly string[]): string | undefined {
  const unknown = Object.keys(options).find((name) => !known.includes(name));
  if (unknown === undefined) return undefined;
  const lower = known.map((name) => name.toLowerCase());
  const close = closestName(unknown.toLowerCase(), lower);
  const shown = /^[A-Za-z_$][\w$]{0,40}$/.test(unknown) ? `"${unknown}"` : '(a member that is not an option name)';
  const meant = close === undefined ? `it takes ${known.join(', ')}` : `did you mean ${known[lower.indexOf(close)]}?`;
  return `${where}: unknown option ${shown}; ${meant}`;
}
