// A data problem is what a data editor reads: the file, where in it, what is wrong, how to fix it.

export interface DataProblem {
  /** Path of the file relative to the project root, with forward slashes. */
  file: string;
  /** Path inside the file, e.g. ["issuer", "lei"]; empty for the file as a whole. */
  path: (string | number)[];
  line: number | null;
  column: number | null;
  message: string;
  fix: string;
  /** Name of the rule (zod schema or named cross-file check) that found it. */
  rule: string;
}

export function formatPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '(file)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

export function formatProblem(p: DataProblem): string {
  const where = p.line === null ? p.file : `${p.file}:${p.line}:${p.column ?? 1}`;
  return `${where}  ${formatPath(p.path)}: ${p.message}\n    fix: ${p.fix}  [${p.rule}]`;
}

export function formatProblems(problems: readonly DataProblem[]): string {
  const files = new Set(problems.map((p) => p.file)).size;
  const lines = problems.map(formatProblem);
  lines.push(
    `\n${problems.length} problem${problems.length === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}.`,
  );
  return lines.join('\n');
}

export function sortProblems(problems: DataProblem[]): DataProblem[] {
  return problems.sort(
    (a, b) =>
      a.file.localeCompare(b.file) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      a.rule.localeCompare(b.rule),
  );
}
