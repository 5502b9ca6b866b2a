// The representation of a dataset operation an `Accept` header asks for (JSON, CSV or NDJSON):
// read by the answers (answers.ts), so the server and the Astro endpoints choose alike.
import Negotiator from 'negotiator';
import { BoundedMap } from '../lib/bounded-map.ts';
import type { Format } from './bulk.ts';

const FORMAT_TYPES: Record<string, Format> = {
  'application/json': 'json',
  'text/csv': 'csv',
  'application/x-ndjson': 'ndjson',
};
// The header space is small in practice; bounded so that hostile headers cannot grow it.
const formatCache = new BoundedMap<string, Format>(512);

/**
 * JSON unless CSV or NDJSON is preferred (ties and `*\/*` go to JSON; nothing acceptable also
 * gets JSON, the documented default, rather than a 406). Media-type parameters other than q are
 * ignored (`text/csv; charset=utf-8` is CSV). Same rule as the server's respond.ts.
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
