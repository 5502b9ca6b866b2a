// The representation of a dataset operation an `Accept` header asks for (JSON, CSV or NDJSON):
// read by the answers (answers.ts), so the server and the Astro endpoints choose alike. The
// formats and their types are those registered in formats.ts.
import Negotiator from 'negotiator';
import { BoundedMap } from '../lib/bounded-map.ts';
import { MEDIA_TYPES, type Format } from './bulk.ts';
import { FORMATS } from './formats.ts';
import type { ParamProblem } from './params.ts';

/** Each format by the type `Accept` names it by (formats.ts: registered once). */
const FORMAT_TYPES: Record<string, Format> = Object.fromEntries(
  Object.values(FORMATS).map((f) => [f.acceptType, f.format]),
);
// The header space is small in practice; bounded so that hostile headers cannot grow it.
const formatCache = new BoundedMap<string, Format>(512);

/**
 * JSON unless CSV or NDJSON is preferred (ties and `*\/*` go to JSON). An Accept that admits none
 * of them is refused before this is asked (`acceptable`, 406). Media-type parameters other than q
 * are ignored (`text/csv; charset=utf-8` is CSV). Same rule as the server's respond.ts.
 */
export function negotiateFormat(accept: string | null | undefined): Format {
  if (
    accept === undefined ||
    accept === null ||
    accept === '' ||
    accept === '*/*' ||
    accept === 'application/json'
  )
    return 'json';
  const cached = formatCache.get(accept);
  if (cached) return cached;
  const plain = accept.slice(0, 1024).replace(/;\s*(?!q=)[^;,]*/gi, '');
  const chosen = new Negotiator({ headers: { accept: plain } }).mediaTypes(
    Object.keys(FORMAT_TYPES),
  )[0];
  const format = (chosen && FORMAT_TYPES[chosen.toLowerCase()]) || 'json';
  formatCache.set(accept, format);
  return format;
}

/** What each kind of operation answers with: the datasets in three types, the rest in JSON. */
export const DATASET_TYPES = Object.keys(FORMAT_TYPES);
export const JSON_TYPES = [MEDIA_TYPES.json.split(';')[0]!];

const acceptableCache = new BoundedMap<string, boolean>(512);

/**
 * Whether an `Accept` header admits one of `types` (RFC 9110 §12.5.1; parameters other than q
 * ignored, as negotiateFormat does). No header, or an empty one, admits anything.
 */
export function acceptable(accept: string | null | undefined, types: readonly string[]): boolean {
  if (accept === undefined || accept === null || accept.trim() === '' || accept === '*/*')
    return true;
  const key = `${types.join(',')}\n${accept}`;
  const cached = acceptableCache.get(key);
  if (cached !== undefined) return cached;
  const plain = accept.slice(0, 1024).replace(/;\s*(?!q=)[^;,]*/gi, '');
  const ok = new Negotiator({ headers: { accept: plain } }).mediaTypes([...types]).length > 0;
  acceptableCache.set(key, ok);
  return ok;
}

/** The 406 an unacceptable `Accept` gets, with the types the operation answers with. */
export function notAcceptable(accept: string, types: readonly string[]): ParamProblem {
  return {
    code: 'not_acceptable',
    detail: `Accept: ${accept.slice(0, 200)} names none of the types this operation answers with: ${types.join(', ')}.`,
    extensions: { allowed: [...types] },
  };
}
