// The registry list's selection by index (issue #37): the records each filter value selects and
// the rows ordered by `last_changed` are precomputed, so a filtered page intersects a few sorted
// lists and `changed_since=` is a binary search, instead of a scan of every row; `q=` reads the
// inverted index (text-index.ts). Made by the bodies pass into the build
// (dataset/registry-query-file.ts) and loaded at start (`useRegistryQuery`); a list without a
// loaded index (an older release, the build itself, a test) makes it on first use.
import type { IndexRow } from '../dataset/registry-index.ts';
import type { FilterPostings, RegistryQueryData } from '../dataset/registry-query-file.ts';
import { UNKNOWN_FACTOR } from '../domain/codes.ts';
import { buildTextIndex, searchText, termTree } from './text-index.ts';
import type { SearchSpec } from './search.ts';

const LEVELS = ['L1', 'L2', 'L3'] as const;
const LEVEL_RANK: Record<string, number> = { unverified: 0, L1: 1, L2: 2, L3: 3 };

/**
 * The values of each list filter a row matches (registry-list.ts's rule: a stated filter value
 * never matches a record that states nothing; `validation_level` matches that level or higher).
 */
export const ROW_FILTERS: Record<string, (r: IndexRow) => readonly (string | null | undefined)[]> =
  {
    asset_class: (r) => [r.asset_class],
    tfic: (r) => [r.tfic],
    ledger: (r) => r.ledgers,
    mica_status: (r) => [r.mica_status],
    mica_authorisation: (r) => [r.mica_authorisation],
    regime: (r) => [r.regime ?? UNKNOWN_FACTOR],
    eu_access: (r) => [r.eu_access ?? UNKNOWN_FACTOR],
    jurisdiction: (r) => [r.jurisdiction],
    lifecycle_status: (r) => [r.lifecycle_status],
    lei: (r) => [r.lei],
    isin: (r) => [r.isin],
    kind: (r) => [r.kind ?? 'asset'],
    programme: (r) => [r.programme],
    validation_level: (r) => {
      const rank = LEVEL_RANK[r.validation_level];
      // A level the rank table does not know is never below the one asked for.
      return rank === undefined ? LEVELS : LEVELS.filter((l) => LEVEL_RANK[l]! <= rank);
    },
  };

function filterPostings(
  rows: readonly IndexRow[],
  valuesOf: (r: IndexRow) => readonly (string | null | undefined)[],
): FilterPostings {
  const holders = new Map<string, number[]>();
  rows.forEach((row, i) => {
    for (const v of new Set(valuesOf(row))) {
      if (typeof v !== 'string') continue;
      const list = holders.get(v);
      if (list) list.push(i);
      else holders.set(v, [i]);
    }
  });
  const values = [...holders.keys()].sort();
  const start = new Uint32Array(values.length + 1);
  values.forEach((v, i) => (start[i + 1] = start[i]! + holders.get(v)!.length));
  const docs = new Uint32Array(start[values.length]!);
  values.forEach((v, i) => docs.set(holders.get(v)!, start[i]!));
  return { values, start, docs };
}

function changedOrder(rows: readonly IndexRow[]): RegistryQueryData['changed'] {
  const dates = [...new Set(rows.flatMap((r) => (r.last_changed ? [r.last_changed] : [])))].sort();
  const indexOf = new Map(dates.map((d, i) => [d, i]));
  const ofRow = new Uint32Array(rows.length);
  rows.forEach((r, i) => (ofRow[i] = r.last_changed ? indexOf.get(r.last_changed)! + 1 : 0));
  const dateStart = new Uint32Array(dates.length + 1);
  for (const d of ofRow) if (d) dateStart[d]!++;
  for (let i = 1; i <= dates.length; i++) dateStart[i]! += dateStart[i - 1]!;
  const byDate = new Uint32Array(dateStart[dates.length]!);
  const next = dateStart.slice(0, dates.length);
  ofRow.forEach((d, i) => {
    if (d) byDate[next[d - 1]!++] = i;
  });
  return { dates, ofRow, byDate, dateStart };
}

/** The query index of `rows` (text under `search`, every filter, the change dates). */
export function buildRegistryQuery(
  rows: readonly IndexRow[],
  search: SearchSpec<IndexRow>,
): RegistryQueryData {
  return {
    count: rows.length,
    first: rows[0]?.tfin ?? null,
    last: rows.at(-1)?.tfin ?? null,
    text: buildTextIndex(rows, search),
    filters: Object.fromEntries(
      Object.entries(ROW_FILTERS).map(([name, valuesOf]) => [name, filterPostings(rows, valuesOf)]),
    ),
    changed: changedOrder(rows),
  };
}

/** Whether `data` was made from `rows` (same count, same first and last TFIN) under `search`. */
export function queryIndexFits(
  data: RegistryQueryData,
  rows: readonly IndexRow[],
  search: SearchSpec<IndexRow>,
): boolean {
  const fields = Object.keys(search.fields);
  return (
    data.count === rows.length &&
    data.first === (rows[0]?.tfin ?? null) &&
    data.last === (rows.at(-1)?.tfin ?? null) &&
    data.text.fields.join() === fields.join() &&
    data.text.boosts.join() === fields.map((f) => search.fields[f]!.boost).join() &&
    Object.keys(data.filters).join() === Object.keys(ROW_FILTERS).join()
  );
}

/** The positions of a filter value's rows (ascending; empty for a value no row holds). */
function postingsOf(p: FilterPostings, value: string): Uint32Array {
  let lo = 0;
  let hi = p.values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (p.values[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return p.values[lo] === value
    ? p.docs.subarray(p.start[lo]!, p.start[lo + 1]!)
    : new Uint32Array(0);
}

/** The index of the first date after `since` (dates are sorted), as a row's date number. */
function firstDateAfter(dates: readonly string[], since: string): number {
  let lo = 0;
  let hi = dates.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (dates[mid]! <= since) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether the sorted `docs` hold `doc` (binary search). */
function hasDoc(docs: Uint32Array, doc: number): boolean {
  let lo = 0;
  let hi = docs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid]! < doc) lo = mid + 1;
    else hi = mid;
  }
  return docs[lo] === doc;
}

/**
 * The positions of the rows the filters and `changed_since` of `q` select, ascending; null when
 * `q` has none (every row). The smallest set is the start; the others are membership tests.
 */
export function filterRows(data: RegistryQueryData, q: Record<string, string>): Uint32Array | null {
  const sets: Uint32Array[] = [];
  for (const name of Object.keys(ROW_FILTERS)) {
    const value = q[name];
    if (value) sets.push(postingsOf(data.filters[name]!, value));
  }
  const since = q['changed_since'];
  const { dates, ofRow, byDate, dateStart } = data.changed;
  // Rows changed after `since`: those whose date number is above `cut`.
  const cut = since ? firstDateAfter(dates, since) : -1;
  const changedCount = since ? byDate.length - dateStart[cut]! : Infinity;
  if (!sets.length && !since) return null;
  sets.sort((a, b) => a.length - b.length);
  if (since && (!sets.length || changedCount < sets[0]!.length)) {
    // The changed rows are the fewest: their positions, ascending (a scan when they are many).
    const changed =
      changedCount * 16 < data.count
        ? byDate.slice(dateStart[cut]!).sort()
        : changedScan(ofRow, cut);
    return sets.length ? changed.filter((doc) => sets.every((set) => hasDoc(set, doc))) : changed;
  }
  const base = sets.shift()!;
  if (!sets.length && !since) return base;
  return base.filter(
    (doc) => (!since || ofRow[doc]! > cut) && sets.every((set) => hasDoc(set, doc)),
  );
}

/** The positions whose date number is above `cut`, ascending (one pass over the rows). */
function changedScan(ofRow: Uint32Array, cut: number): Uint32Array {
  const out = new Uint32Array(ofRow.length);
  let n = 0;
  for (let i = 0; i < ofRow.length; i++) if (ofRow[i]! > cut) out[n++] = i;
  return out.subarray(0, n);
}

/** Positions of a sort order's rows, and each row's place in it. */
interface OrderPositions {
  ordinals: Uint32Array;
  rank: Uint32Array;
}

const orderPositions = new WeakMap<readonly IndexRow[], OrderPositions>();
const ordinalsOf = new WeakMap<readonly IndexRow[], Map<IndexRow, number>>();

export function positionsOf(rows: readonly IndexRow[], order: readonly IndexRow[]): OrderPositions {
  let kept = orderPositions.get(order);
  if (kept) return kept;
  let ordinal = ordinalsOf.get(rows);
  if (!ordinal) ordinalsOf.set(rows, (ordinal = new Map(rows.map((r, i) => [r, i]))));
  const ordinals = Uint32Array.from(order, (r) => ordinal.get(r)!);
  const rank = new Uint32Array(rows.length);
  ordinals.forEach((o, i) => (rank[o] = i));
  orderPositions.set(order, (kept = { ordinals, rank }));
  return kept;
}

/**
 * `order` (a sort order of `rows`) restricted to the positions `docs`: the few sorted by their
 * place in it, or the order walked once when they are many.
 */
export function inOrder(
  rows: readonly IndexRow[],
  order: readonly IndexRow[],
  docs: ArrayLike<number>,
): IndexRow[] {
  const { ordinals, rank } = positionsOf(rows, order);
  if (docs.length * 16 < rows.length) {
    const places = Uint32Array.from(docs, (d) => rank[d]!).sort();
    return Array.from(places, (p) => order[p]!);
  }
  const member = new Uint8Array(rows.length);
  for (let i = 0; i < docs.length; i++) member[docs[i]!] = 1;
  const out: IndexRow[] = [];
  for (let p = 0; p < ordinals.length; p++) if (member[ordinals[p]!]) out.push(order[p]!);
  return out;
}

/** The positions of `hits` (any order) that the ascending `docs` hold, in `hits`' order. */
export function keepIn(hits: readonly number[], docs: Uint32Array): number[] {
  return hits.filter((h) => hasDoc(docs, h));
}

/** A query index per row list: the loaded one, else made on first use (and kept with the list). */
const indexes = new WeakMap<readonly IndexRow[], RegistryQueryData>();

export function registryQuery(
  rows: readonly IndexRow[],
  search: SearchSpec<IndexRow>,
): RegistryQueryData {
  let data = indexes.get(rows);
  if (!data) indexes.set(rows, (data = buildRegistryQuery(rows, search)));
  return data;
}

/** Serves `rows` from a built index (the server at start); refused when it was made from other rows. */
export function useRegistryQuery(
  rows: readonly IndexRow[],
  data: RegistryQueryData,
  search: SearchSpec<IndexRow>,
): void {
  if (!queryIndexFits(data, rows, search))
    throw new Error('the registry query index does not match the dataset: run `npm run build`');
  indexes.set(rows, data);
  // Grown now, so that no request pays for it (~0.3 s at 100,000 records).
  termTree(data.text);
}

/** Positions of the rows matching `text`, best first. */
export function searchRows(data: RegistryQueryData, text: string): number[] {
  return searchText(data.text, text);
}
