export interface Summary {
  median: number;
  min: number;
  max: number;
  p10: number;
  p90: number;
  runs: number;
}

function quantile(sorted: number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

export function summarize(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: quantile(sorted, 0.5),
    min: sorted[0]!,
    max: sorted.at(-1)!,
    p10: quantile(sorted, 0.1),
    p90: quantile(sorted, 0.9),
    runs: sorted.length,
  };
}

export const fmt = (value: number, digits = 3): string => value.toFixed(digits);

export interface BudgetLine {
  figure: string;
  value: string;
  budget: string;
  pass: boolean | null;
}

export function printBudgets(lines: BudgetLine[]): void {
  const rows = lines.map((l) => [l.figure, l.value, l.budget, l.pass === null ? 'report' : l.pass ? 'PASS' : 'OVER']);
  const widths = [0, 1, 2, 3].map((i) =>
    Math.max(...rows.map((r) => r[i]!.length), ['figure', 'measured', 'budget', 'verdict'][i]!.length),
  );
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(['figure', 'measured', 'budget', 'verdict']));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(row));
}
