// The refresh's guard (fail closed): a refreshed figure that jumps or drops by more than its kind's
// threshold (deploy/data-refresh.yaml) against the value it replaces is not published: it keeps
// its previous value, and the change is reported for an editor to review. A wrong decimals, a
// migrated contract or an aggregator's bad day must not reach users silently.
// The same reading of figures lists what a refresh changed, for its summary.
import {
  isMap,
  isSeq,
  parse,
  parseDocument,
  type Document,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
import { renderDoc } from '../shared/data-docs.ts';
import type { PlannedChange } from '../shared/changes.ts';
import type { GuardedKind } from './config.ts';

export interface FigureValue {
  /** Where the figure is in its file, e.g. `circulating_supply` or `deployments ETH 0xa0b8… supply`. */
  at: string;
  kind: GuardedKind;
  value: number;
  as_of: string | null;
}

export interface FigureChange {
  path: string;
  at: string;
  kind: GuardedKind;
  before: FigureValue | null;
  after: FigureValue | null;
}

export interface HeldChange extends FigureChange {
  /** The change in percent of the previous value (Infinity from zero). */
  change_pct: number;
  max_change_pct: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

function figure(at: string, kind: unknown, f: unknown): FigureValue[] {
  if (!isObj(f) || typeof f['value'] !== 'number' || typeof kind !== 'string') return [];
  const as_of = typeof f['as_of'] === 'string' ? f['as_of'] : null;
  return [{ at, kind: kind as GuardedKind, value: f['value'], as_of }];
}

/** The dated figures of one data file (a coin or an asset record), keyed by where they are. */
export function figuresOf(path: string, text: string | null): Map<string, FigureValue> {
  const found: FigureValue[] = [];
  let doc: unknown;
  try {
    doc = text === null ? null : parse(text);
  } catch {
    doc = null; // data:check explains a file that does not parse
  }
  if (isObj(doc) && path.startsWith('data/stablecoins/')) {
    for (const kind of ['market_cap', 'circulating_supply'] as const)
      found.push(...figure(kind, kind, doc[kind]));
    // The ledger sum is a circulating supply: guarded with that kind's threshold.
    found.push(
      ...figure(
        'ledger_circulating_supply',
        'circulating_supply',
        doc['ledger_circulating_supply'],
      ),
    );
    for (const d of list(doc['deployments']))
      found.push(
        ...figure(
          `deployments ${d['ledger']} ${String(d['contract_address']).toLowerCase()} supply`,
          'total_supply',
          d['supply'],
        ),
      );
  }
  if (isObj(doc) && path.startsWith('data/assets/')) {
    const amount = doc['amount'];
    if (isObj(amount)) found.push(...figure('amount', amount['kind'], amount));
    const validation = isObj(doc['validation']) ? doc['validation'] : {};
    const evidence = isObj(validation['evidence']) ? validation['evidence'] : {};
    for (const e of list(evidence['technical']))
      if (e['method'] === 'rpc' && typeof e['supply'] === 'number')
        found.push({
          at: `technical ${e['ledger']} ${String(e['contract_address']).toLowerCase()} supply`,
          kind: 'total_supply',
          value: e['supply'],
          as_of: typeof e['as_of'] === 'string' ? e['as_of'] : null,
        });
  }
  return new Map(found.map((f) => [f.at, f]));
}

/** Every figure a change adds, moves or removes. */
export function figureChanges(change: PlannedChange): FigureChange[] {
  const before = figuresOf(change.path, change.before);
  const after = figuresOf(change.path, change.after);
  const out: FigureChange[] = [];
  for (const at of new Set([...before.keys(), ...after.keys()])) {
    const b = before.get(at) ?? null;
    const a = after.get(at) ?? null;
    if (b?.value === a?.value && b?.as_of === a?.as_of) continue;
    out.push({ path: change.path, at, kind: (a ?? b)!.kind, before: b, after: a });
  }
  return out;
}

export const changePct = (before: number, after: number) =>
  before === 0 ? (after === 0 ? 0 : Infinity) : ((after - before) / before) * 100;

/** The list item of a ledger read (a deployment, an rpc evidence entry) a figure key names. */
function readAt(doc: Document, at: string): YAMLMap | undefined {
  const [where, ledger, address] = at.split(' ');
  const list =
    where === 'deployments'
      ? doc.get('deployments')
      : doc.getIn(['validation', 'evidence', 'technical']);
  if (!isSeq(list)) return undefined;
  return list.items.find(
    (item): item is YAMLMap =>
      isMap(item) &&
      item.get('ledger') === ledger &&
      String(item.get('contract_address')).toLowerCase() === address &&
      (where === 'deployments' || item.get('method') === 'rpc'),
  );
}

/**
 * The change with the held ledger reads put back as they were, other edits kept; null when one
 * cannot be put back alone (a read with no predecessor entry). The guard holds a coin's or an
 * asset's own figure with its whole file instead, since the importer moved the old value into
 * history and may have added its source.
 */
export function withReadsKept(
  change: PlannedChange,
  jumps: readonly Pick<FigureChange, 'at'>[],
): string | null {
  if (change.before === null) return null;
  const before = parseDocument(change.before);
  const after = parseDocument(change.after);
  for (const j of jumps) {
    const was = readAt(before, j.at);
    const now = readAt(after, j.at);
    if (!was || !now) return null;
    // The node read from the previous text, so that it renders exactly as it was written.
    if (j.at.startsWith('deployments ')) {
      const supply = was.get('supply', true);
      if (supply) now.set('supply', supply);
      else now.delete('supply');
    } else {
      const list = after.getIn(['validation', 'evidence', 'technical']) as YAMLSeq;
      list.items[list.items.indexOf(now)] = was;
    }
  }
  return renderDoc({ text: change.after, doc: after });
}

/**
 * Splits planned changes into those published and those held. A figure that moves beyond its
 * kind's threshold is held: a ledger read (a contract's total supply) keeps its previous value
 * and the rest of its file is published; any other figure keeps its whole file as it was. A
 * figure that is new (no predecessor) has nothing to be compared with and passes; a figure that
 * disappears is the importer's to explain.
 */
export function guard(
  planned: readonly PlannedChange[],
  maxChangePct: Record<GuardedKind, number>,
): { publish: PlannedChange[]; held: HeldChange[] } {
  const publish: PlannedChange[] = [];
  const held: HeldChange[] = [];
  for (const change of planned) {
    const jumps = figureChanges(change).flatMap((f) => {
      if (!f.before || !f.after || f.before.value === f.after.value) return [];
      const pct = changePct(f.before.value, f.after.value);
      const max = maxChangePct[f.kind] ?? 0;
      return Math.abs(pct) > max ? [{ ...f, change_pct: pct, max_change_pct: max }] : [];
    });
    if (!jumps.length) {
      publish.push(change);
      continue;
    }
    held.push(...jumps);
    const rest = jumps.every((j) => j.kind === 'total_supply')
      ? withReadsKept(change, jumps)
      : null;
    const unchanged =
      rest === null || JSON.stringify(parse(rest)) === JSON.stringify(parse(change.before!));
    if (!unchanged) publish.push({ ...change, after: rest! });
  }
  return { publish, held };
}
