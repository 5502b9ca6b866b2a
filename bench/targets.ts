// Every target the bench judges, gathered from its sections as they run, so that the report ends
// with one table of them all: the issue that set it, what was measured, the bound, the ratio of
// the two and pass or miss (issue 37's "Done when": every target beside the earlier ones).

export type Op = '≥' | '≤' | '=';

export interface Target {
  /** Where the target comes from: "#37 item 4", "#6", … */
  issue: string;
  name: string;
  /** Null when the section could not measure it (its tool or service missing). */
  value: number | null;
  bound: number;
  op: Op;
  /** Printed after the value and the bound ("×", "ms", "MB", …; "" for a plain number). */
  unit: string;
}

export type Verdict = 'pass' | 'miss' | 'n/a';

const recorded: Target[] = [];

export function verdict(t: Target): Verdict {
  if (t.value === null || Number.isNaN(t.value)) return 'n/a';
  if (t.op === '=') return t.value === t.bound ? 'pass' : 'miss';
  return (t.op === '≥' ? t.value >= t.bound : t.value <= t.bound) ? 'pass' : 'miss';
}

/** Records a target for the closing table and returns its verdict (for the section's own table). */
export function recordTarget(t: Target): Verdict {
  recorded.push(t);
  return verdict(t);
}

const number = (n: number, unit: string) =>
  n === Infinity
    ? 'no answer'
    : `${Number.isInteger(n) ? String(n) : n.toFixed(unit === 'MB' ? 0 : 2)}${unit ? ` ${unit}` : ''}`;

/** The measured value over the bound (1 when both are 0); none for an equality of counts. */
function ratio(t: Target): string {
  if (t.value === null || Number.isNaN(t.value) || t.op === '=') return '—';
  if (t.bound === 0) return t.value === 0 ? '1.00' : '—';
  return (t.value / t.bound).toFixed(2);
}

/** The closing table: every target recorded so far, in the order the sections ran. */
export function targetsTable(): string[] {
  const passed = recorded.filter((t) => verdict(t) === 'pass').length;
  const missed = recorded.filter((t) => verdict(t) === 'miss').length;
  return [
    '## Every target of this run',
    '',
    `${recorded.length} targets: ${passed} pass, ${missed} miss, ${recorded.length - passed - missed} not measured. Ratio = measured / bound (for "≥" above 1 passes, for "≤" below 1 passes). The reading beside this report gives each miss its measured reason.`,
    '',
    '| issue | target | measured | bound | ratio | result |',
    '|---|---|---:|---:|---:|---|',
    ...recorded.map(
      (t) =>
        `| ${t.issue} | ${t.name} | ${t.value === null || Number.isNaN(t.value) ? '—' : number(t.value, t.unit)} | ${t.op} ${number(t.bound, t.unit)} | ${ratio(t)} | ${verdict(t)} |`,
    ),
  ];
}
