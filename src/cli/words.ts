// How the command line writes a count: digits grouped as in English (1,000), and the noun in the
// singular for one ("1 page", "2 pages"). One place, so every output agrees.
export const n = (value: number): string => value.toLocaleString('en-US');

/** `1 page`, `2 pages`, `1,000 more accounts`. */
export const plural = (count: number, one: string, many = `${one}s`): string =>
  `${n(count)} ${count === 1 ? one : many}`;
