// Turns zod issues into problems a data editor can act on: what is wrong and how to fix it.
import { z } from 'zod';
import { closest } from '../lib/edit-distance.ts';
import { problemAt, type YamlFile } from './yaml-file.ts';
import type { DataProblem } from './problems.ts';

/** Fix advice for fields whose remedy is specific, keyed by the last path segment. */
const FIELD_FIXES: Record<string, string> = {
  lei: 'copy the LEI exactly from the issuer’s GLEIF record, or set it to null and explain why in lei_null_reason',
  isin: 'copy the ISIN exactly from the prospectus, final terms or CSD notice, or set it to null and explain why in null_reason',
  cusip: 'copy the CUSIP exactly as published, or set it to null',
  figi: 'copy the FIGI exactly as published by OpenFIGI, or set it to null',
  contract_address:
    'copy the address exactly as the issuer publishes it, or set it to null and explain why in contract_address_null_reason',
  tfin: 'write the ID as TFIN-<CLASS>-<LEDGER>-<YEAR>-<SEQ> using codes from data/codes/tfic.yaml and data/codes/ledgers.yaml',
  url: 'give the full https:// address of the public page',
  jurisdiction: 'use the ISO 3166-1 alpha-2 code of the legal domicile, e.g. "LU"',
  currency: 'use the ISO 4217 code, e.g. "EUR"',
};

function isDateField(key: string | number | undefined): boolean {
  return (
    typeof key === 'string' &&
    (key === 'as_of' ||
      key === 'accessed' ||
      key === 'published' ||
      key.endsWith('_date') ||
      key === 'date')
  );
}

/** Known keys of the object schema found at `path`, for "did you mean" hints. */
function objectKeysAt(schema: z.ZodType, path: readonly (string | number)[]): string[] {
  let current: z.ZodType | undefined = schema;
  for (const step of [...path, null]) {
    // Unwrap wrappers until an object, array or record is reached.
    for (let i = 0; i < 8 && current; i++) {
      if (current instanceof z.ZodNullable || current instanceof z.ZodOptional)
        current = current.unwrap() as z.ZodType;
      else break;
    }
    if (!current) return [];
    if (step === null) return current instanceof z.ZodObject ? Object.keys(current.shape) : [];
    if (current instanceof z.ZodObject)
      current = (current.shape as Record<string, z.ZodType>)[String(step)];
    else if (current instanceof z.ZodArray) current = current.element as z.ZodType;
    else if (current instanceof z.ZodRecord) current = current.valueType as z.ZodType;
    else return [];
  }
  return [];
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Date) return 'an unquoted date (YAML read it as a timestamp)';
  return typeof value === 'object' ? 'a mapping' : `${typeof value} ${JSON.stringify(value)}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const p of path)
    v = v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}

export function zodProblems(file: YamlFile, schema: z.ZodType, rule: string): DataProblem[] {
  const result = schema.safeParse(file.value);
  if (result.success) return [];
  const problems: DataProblem[] = [];
  for (const issue of result.error.issues) {
    const at = issue.path.map((p) => (typeof p === 'number' ? p : String(p)));
    const last = at[at.length - 1];
    const fieldFix = typeof last === 'string' ? FIELD_FIXES[last] : undefined;
    const actual = valueAt(file.value, issue.path);
    switch (issue.code) {
      case 'unrecognized_keys':
        for (const key of issue.keys) {
          const suggestion = closest(key, objectKeysAt(schema, at));
          problems.push(
            problemAt(
              file,
              [...at, key],
              rule,
              'is not a field of this record',
              suggestion
                ? `rename it to "${suggestion}"`
                : 'remove it (see CONTRIBUTING.md for the fields)',
            ),
          );
        }
        break;
      case 'invalid_type':
        if (actual === undefined) {
          problems.push(
            problemAt(
              file,
              at,
              rule,
              'is missing',
              `add "${String(last)}:" with ${issue.expected === 'object' ? 'its fields' : `a ${issue.expected} value`}${issue.expected === 'string' ? ' (or null where allowed, with a reason)' : ''}`,
            ),
          );
        } else if (isDateField(last) && actual instanceof Date) {
          problems.push(
            problemAt(
              file,
              at,
              rule,
              'is an unquoted date',
              `put the date in quotes: "${actual.toISOString().slice(0, 10)}"`,
            ),
          );
        } else {
          problems.push(
            problemAt(
              file,
              at,
              rule,
              `must be ${issue.expected === 'object' ? 'a mapping' : issue.expected === 'array' ? 'a list' : `a ${issue.expected}`}, found ${describeType(actual)}`,
              fieldFix ?? `write a ${issue.expected} here`,
            ),
          );
        }
        break;
      case 'invalid_value':
        problems.push(
          problemAt(
            file,
            at,
            rule,
            `${JSON.stringify(actual)} is not an allowed value`,
            `use one of: ${issue.values.map((v) => String(v)).join(', ')}`,
          ),
        );
        break;
      default: {
        const message =
          issue.message.startsWith('Invalid') || issue.message.startsWith('Too')
            ? issue.message.toLowerCase()
            : issue.message;
        const fix =
          fieldFix ??
          (typeof last === 'string' && last.endsWith('reason')
            ? `add "${last}:" with a short sentence saying why the value is not given (e.g. "not published in the prospectus")`
            : isDateField(last)
              ? 'write the date as "YYYY-MM-DD", in quotes'
              : `change the value so that it ${message.replace(/^is not /, 'is ').replace(/^must /, '')}`);
        problems.push(problemAt(file, at, rule, message, fix));
      }
    }
  }
  return withoutRenamedMissing(problems);
}

/** A misspelled field shows up twice (unknown + missing); keep only the rename advice. */
function withoutRenamedMissing(problems: DataProblem[]): DataProblem[] {
  const renamedTo = new Set(
    problems.flatMap((p) => {
      const m = /^rename it to "(.+)"$/.exec(p.fix);
      return m ? [[...p.path.slice(0, -1), m[1]].join('.')] : [];
    }),
  );
  return problems.filter((p) => !(p.message === 'is missing' && renamedTo.has(p.path.join('.'))));
}
