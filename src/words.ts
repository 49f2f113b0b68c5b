// How the package writes a count in its messages: digits grouped as in English (1,000), and the noun in
// the singular for one ("1 page", "2 pages"). One place, so the command line and the sandbox agree.
export const n = (value: number): string => value.toLocaleString('en-US');

/** `1 page`, `2 pages`, `1,000 more accounts`. */
export const plural = (count: number, one: string, many = `${one}s`): string =>
  `${n(count)} ${count === 1 ? one : many}`;
