// Query-parameter reading shared by every operation: unknown, repeated, empty and malformed
// parameters become one precise problem instead of being ignored.
import type { ProblemCode } from '../domain/errors.ts';
import { closest } from '../lib/edit-distance.ts';

export interface ParamSpec {
  name: string;
  description: string;
  /** Accepted values after normalisation; a pattern or a closed list. */
  pattern?: RegExp;
  values?: readonly string[];
  normalise?: (raw: string) => string;
  example?: string;
  maxLength?: number;
  /** Human wording of the pattern, shown instead of the regular expression. */
  format?: string;
  /** A whole number in this range: /openapi.json types the parameter as an integer, so a typed
   * client takes a number (the pattern still checks the text as sent). */
  integer?: { minimum: number; maximum: number };
  /** What the pattern cannot say (a date that exists): null when the value is fine, else why not. */
  check?: (value: string) => string | null;
}

export interface ParamProblem {
  code: ProblemCode;
  detail: string;
  extensions: Record<string, unknown>;
}

export type ParamResult =
  { ok: true; values: Record<string, string> } | { ok: false; problem: ParamProblem };

/** Up to this many accepted values are listed in a problem; a longer list (168 ledger codes)
 * is named, with the closest value, since /openapi.json lists it as the parameter's enum. */
const LISTED_AT_MOST = 40;

function notOneOf(value: string, accepted: readonly string[]): string {
  if (accepted.length <= LISTED_AT_MOST) return `must be one of: ${accepted.join(', ')}`;
  const near = closest(value, accepted);
  return `must be one of the ${accepted.length} values of the parameter's enum in /openapi.json${near ? ` (closest: ${near})` : ''}`;
}

// C0/C1 controls and unpaired surrogates never belong in a parameter value.
const CONTROL =
  /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function readParams(search: URLSearchParams, specs: readonly ParamSpec[]): ParamResult {
  const allowed = specs.map((s) => s.name);
  const names = [...search.keys()];
  const unknown = [...new Set(names.filter((n) => !allowed.includes(n)))];
  if (unknown.length) {
    const shown = unknown.map((n) => JSON.stringify(n.slice(0, 64))).join(', ');
    return {
      ok: false,
      problem: {
        code: 'unknown_parameter',
        detail: `Unknown query parameter${unknown.length > 1 ? 's' : ''} ${shown}. ${allowed.length ? `Allowed: ${allowed.join(', ')}.` : 'This operation takes no parameters.'}`,
        extensions: { allowed },
      },
    };
  }
  const values: Record<string, string> = {};
  const errors: { parameter: string; message: string }[] = [];
  for (const spec of specs) {
    const all = search.getAll(spec.name);
    if (all.length === 0) continue;
    if (all.length > 1) {
      return {
        ok: false,
        problem: {
          code: 'repeated_parameter',
          detail: `The parameter "${spec.name}" was given ${all.length} times; give it once.`,
          extensions: { errors: [{ parameter: spec.name, message: 'given more than once' }] },
        },
      };
    }
    const raw = all[0]!;
    if (raw.trim() === '') {
      errors.push({
        parameter: spec.name,
        message: 'is empty; give a value or leave the parameter out',
      });
      continue;
    }
    if (raw.length > (spec.maxLength ?? 200)) {
      errors.push({
        parameter: spec.name,
        message: `is longer than ${spec.maxLength ?? 200} characters`,
      });
      continue;
    }
    if (CONTROL.test(raw)) {
      errors.push({ parameter: spec.name, message: 'contains control characters' });
      continue;
    }
    const value = spec.normalise ? spec.normalise(raw) : raw;
    if (spec.values && !spec.values.includes(value)) {
      errors.push({ parameter: spec.name, message: notOneOf(value, spec.values) });
    } else if (spec.pattern && !spec.pattern.test(value)) {
      errors.push({
        parameter: spec.name,
        message: `must be ${spec.format ?? `of the form ${spec.pattern.source}`}${spec.example ? `, e.g. ${spec.example}` : ''}`,
      });
    } else {
      const refused = spec.check?.(value);
      if (refused) errors.push({ parameter: spec.name, message: refused });
      else values[spec.name] = value;
    }
  }
  if (errors.length) {
    return {
      ok: false,
      problem: {
        code: 'invalid_parameter',
        detail: errors.map((e) => `"${e.parameter}" ${e.message}`).join('; ') + '.',
        extensions: { errors },
      },
    };
  }
  return { ok: true, values };
}
