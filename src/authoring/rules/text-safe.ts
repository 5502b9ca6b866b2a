// The rule `text-safe` (npm run data:check): every text value and key of every data file passes the
// text rules every importer and the refresh apply before writing (src/lib/text-rules.ts: no
// control characters but tab and line breaks, no bidi overrides, no spreadsheet formula, a bounded
// length), so data:check refuses what the importers refuse, whoever wrote the file.
import type { YamlFile } from '../../dataset/loaded.ts';
import { SAFE_TEXT_EXPECTED, unsafeTextReason } from '../../lib/text-rules.ts';
import type { DataProblem } from '../problems.ts';
import { loadedFiles } from '../source-lists.ts';
import { problemAt } from '../yaml-file.ts';
import type { DataCheck } from './rule.ts';

type At = (string | number)[];

function unsafeIn(value: unknown, at: At, out: [At, string][]) {
  if (typeof value === 'string') {
    const reason = unsafeTextReason(value);
    if (reason) out.push([at, reason]);
  } else if (Array.isArray(value)) value.forEach((v, i) => unsafeIn(v, [...at, i], out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      const reason = unsafeTextReason(k);
      if (reason) out.push([at, `has a key that ${reason}`]);
      unsafeIn(v, [...at, k], out);
    }
}

export const textSafe: DataCheck = {
  name: 'text-safe',
  run(ctx) {
    const problems: DataProblem[] = [];
    const files = new Map<string, YamlFile>();
    for (const f of [...loadedFiles(ctx).map((l) => l.file), ...Object.values(ctx.codeFiles)])
      files.set(f.file, f);
    for (const file of files.values()) {
      const found: [At, string][] = [];
      unsafeIn(file.value, [], found);
      for (const [at, reason] of found)
        problems.push(problemAt(file, at, 'text-safe', reason, SAFE_TEXT_EXPECTED));
    }
    return problems;
  },
};
