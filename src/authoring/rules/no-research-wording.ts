// The rule `no-research-wording` (npm run data:check): texts users read say what is known and
// what is not in product terms, never how a record was researched. Every text value of every data
// file (records, series, code tables, market and MiCA files) is searched, ignoring case, for the
// phrases below.
import type { YamlFile } from '../../dataset/loaded.ts';
import type { DataProblem } from '../problems.ts';
import { loadedFiles } from '../source-lists.ts';
import { problemAt } from '../yaml-file.ts';
import type { DataCheck } from './rule.ts';

export const RESEARCH_PHRASES = [
  'this review',
  'reviewed',
  'stored public record',
  'stored record',
  'stored copies',
  'no live web',
  'could not be queried',
  'was not retrieved',
  'were not retrieved',
  'not retrievable',
  'was retrievable',
  'not individually opened',
  'we searched',
  'the record we searched',
  'find_string',
  'read_file',
  'search tool',
] as const;

/**
 * Research-diary phrases of issue 34 (how a value was looked for, not what is known).
 */
export const DIARY_PHRASES = [
  'could not be read',
  'page copy stops',
  'found on copy sites',
  "aggregator's reading list",
  'the copy cited',
] as const;

const patternOf = (phrases: readonly string[]) =>
  new RegExp(phrases.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i');

function textsIn(value: unknown, at: (string | number)[], out: [(string | number)[], string][]) {
  if (typeof value === 'string') out.push([at, value]);
  else if (Array.isArray(value)) value.forEach((v, i) => textsIn(v, [...at, i], out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) textsIn(v, [...at, k], out);
}

/** A rule refusing `phrases` in every text value of every data file. */
function wordingRule(name: string, phrases: readonly string[], warnOnly: boolean): DataCheck {
  const pattern = patternOf(phrases);
  return {
    name,
    warnOnly,
    run(ctx) {
      const problems: DataProblem[] = [];
      const files = new Map<string, YamlFile>();
      for (const f of [...loadedFiles(ctx).map((l) => l.file), ...Object.values(ctx.codeFiles)])
        files.set(f.file, f);
      for (const file of files.values()) {
        const texts: [(string | number)[], string][] = [];
        textsIn(file.value, [], texts);
        for (const [at, text] of texts) {
          const found = pattern.exec(text);
          if (found)
            problems.push(
              problemAt(
                file,
                at,
                name,
                `says "${found[0]}", which describes how the record was researched`,
                'say what is known and what is not in product terms, e.g. "is not stated in the sources of this record" or "is not cited"',
              ),
            );
        }
      }
      return problems;
    },
  };
}

export const noResearchWording = wordingRule('no-research-wording', RESEARCH_PHRASES, false);
export const noResearchDiary = wordingRule('no-research-diary', DIARY_PHRASES, false);
