// The registry list's selection as it was before the query index (issue #37): every row tested
// against the filters, and `q=` through MiniSearch (search.ts's searchIndex, the reference
// ranking). The index (src/api/registry-query.ts) must give exactly its answers.
import type { IndexRow } from '../../src/dataset/registry-index.ts';
import { UNKNOWN_FACTOR } from '../../src/domain/codes.ts';
import { prepareSortOrders, ROW_SEARCH } from '../../src/api/registry-list.ts';
import { searchIndexes } from '../../src/api/search.ts';

const LEVEL_RANK: Record<string, number> = { unverified: 0, L1: 1, L2: 2, L3: 3 };

function matches(a: IndexRow, q: Record<string, string>): boolean {
  if (q['asset_class'] && a.asset_class !== q['asset_class']) return false;
  if (q['tfic'] && a.tfic !== q['tfic']) return false;
  if (q['ledger'] && !a.ledgers.includes(q['ledger'])) return false;
  if (q['mica_status'] && a.mica_status !== q['mica_status']) return false;
  if (q['mica_authorisation'] && a.mica_authorisation !== q['mica_authorisation']) return false;
  if (q['regime'] && (a.regime ?? UNKNOWN_FACTOR) !== q['regime']) return false;
  if (q['eu_access'] && (a.eu_access ?? UNKNOWN_FACTOR) !== q['eu_access']) return false;
  if (q['jurisdiction'] && a.jurisdiction !== q['jurisdiction']) return false;
  if (q['lifecycle_status'] && a.lifecycle_status !== q['lifecycle_status']) return false;
  if (q['lei'] && a.lei !== q['lei']) return false;
  if (q['isin'] && a.isin !== q['isin']) return false;
  if (q['kind'] && (a.kind ?? 'asset') !== q['kind']) return false;
  if (q['programme'] && a.programme !== q['programme']) return false;
  if (q['changed_since'] && !(a.last_changed && a.last_changed > q['changed_since'])) return false;
  if (q['validation_level'] && LEVEL_RANK[a.validation_level]! < LEVEL_RANK[q['validation_level']]!)
    return false;
  return true;
}

const FILTERS = [
  'asset_class',
  'tfic',
  'ledger',
  'mica_status',
  'mica_authorisation',
  'regime',
  'eu_access',
  'jurisdiction',
  'lifecycle_status',
  'lei',
  'isin',
  'kind',
  'programme',
  'changed_since',
  'validation_level',
];

const rowIndex = searchIndexes(ROW_SEARCH);

/** The rows a query selects, in its order, by scanning (the reference). */
export function linearSelect(rows: readonly IndexRow[], q: Record<string, string>): IndexRow[] {
  const ordered = q['sort'] ? prepareSortOrders(rows).get(q['sort'])! : rows;
  const filtered = FILTERS.some((f) => q[f]) ? ordered.filter((a) => matches(a, q)) : [...ordered];
  if (!q['q']) return filtered;
  const hits = rowIndex(rows)
    .search(q['q'])
    .map((i) => rows[i]!);
  if (q['sort']) {
    const hit = new Set(hits);
    return filtered.filter((r) => hit.has(r));
  }
  const kept =
    filtered.length === rows.length && !FILTERS.some((f) => q[f]) ? null : new Set(filtered);
  return kept ? hits.filter((r) => kept.has(r)) : hits;
}
