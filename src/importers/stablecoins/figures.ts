// Refreshing one dated figure of a record (SPEC v2: value, currency, as_of, source, stale_reason,
// history): the value it replaces moves into `history`, newest first, so the figure becomes a
// time series. A figure already dated after the input is never overwritten by older data.
import { isMap, isSeq, YAMLMap, YAMLSeq, type Document } from 'yaml';
import { nodeFor } from '../shared/data-docs.ts';

export interface NextFigure {
  value: number;
  currency?: string;
  as_of: string;
  source: string;
}

export type Outcome =
  { kind: 'unchanged' } | { kind: 'updated'; previous: string } | { kind: 'kept'; reason: string };

interface Point {
  value: unknown;
  as_of: unknown;
  source: unknown;
}

const pointOf = (node: unknown): Point | null =>
  isMap(node)
    ? { value: node.get('value'), as_of: node.get('as_of'), source: node.get('source') }
    : null;

/**
 * Sets `key` (e.g. `market_cap`) of the document to `next`. `refused(sourceId)` says whether a
 * source is on a refused domain: such a value is not kept as history (SPEC), and neither are
 * history points that rest on one.
 */
export function refreshFigure(
  doc: Document,
  key: string,
  next: NextFigure,
  refused: (sourceId: string) => boolean,
): Outcome {
  const current = doc.get(key, true);
  const figure = isMap(current) ? current : new YAMLMap();
  const was = pointOf(figure)!;
  const wasDate = typeof was.as_of === 'string' ? was.as_of : '';
  if (wasDate > next.as_of)
    return {
      kind: 'kept',
      reason: `the record's ${key} is dated ${wasDate}, after the input (${next.as_of})`,
    };
  if (was.value === next.value && wasDate === next.as_of && was.source === next.source)
    return { kind: 'unchanged' };

  // Keep the existing points' nodes (their comments and spacing); add the replaced value first.
  const history = figure.get('history', true);
  const kept = (isSeq(history) ? history.items : []).filter((item) => {
    const p = pointOf(item);
    return p && typeof p.as_of === 'string' && p.as_of < next.as_of && !refused(String(p.source));
  });
  const moves =
    typeof was.value === 'number' &&
    was.value > 0 &&
    wasDate < next.as_of &&
    !refused(String(was.source));
  if (moves) {
    const point = nodeFor(doc, { value: was.value, as_of: wasDate, source: was.source }) as YAMLMap;
    point.flow = true;
    kept.unshift(point);
  }
  kept.sort((a, b) => String(pointOf(b)!.as_of).localeCompare(String(pointOf(a)!.as_of)));

  figure.set('value', next.value);
  figure.delete('value_null_reason');
  // The report month, precision and origin of the value it replaces describe that value only.
  for (const key of ['period', 'precision', 'origin']) figure.delete(key);
  if (next.currency) figure.set('currency', next.currency);
  figure.set('as_of', nodeFor(doc, next.as_of));
  figure.set('source', next.source);
  // A figure just refreshed is explained by its date; a reason for an old one no longer applies.
  figure.delete('stale_reason');
  if (kept.length) {
    const seq = new YAMLSeq();
    seq.items = kept;
    figure.set('history', seq);
  } else figure.delete('history');
  if (!isMap(current)) doc.set(key, figure);
  return {
    kind: 'updated',
    previous: wasDate ? `${was.value ?? 'null'} as of ${wasDate} (${String(was.source)})` : 'none',
  };
}
