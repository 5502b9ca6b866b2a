// Plausibility before use (fail closed): a ledger read the refresh would write — a coin
// deployment's total supply, an asset's rpc evidence — is checked against what is known without
// the node that gave it, before the change guard (guards.ts) compares it with its predecessor, so
// a first read is never written unchecked. A node can be wrong, hostile or uninitialised: a
// totalSupply of 2^256−1 or 0, decimals of 255, a block timestamp of 0. A read that fails keeps
// its previous value (or stays absent) and is reported; the run then releases nothing (exit 4).
//
// The checks, each with its bound (deploy/data-refresh.yaml may tighten them, never loosen or
// switch them off: config.ts):
// - decimals: a whole number from 0 to max_decimals (at most 36: ERC-20 tokens use 0–18, and
//   no standard goes past 36), and equal to the decimals recorded for the same contract.
// - supply: not zero while the record is live (a coin `live`, an asset `active`); at most
//   max_supply_multiple times the largest figure known independently of this read: the value it
//   replaces, the coin's circulating supply, its other deployments' supplies, the asset's amount,
//   its other evidence's supplies. With no such figure (most assets state no amount, many coins
//   no circulation), a first read is bounded by FIRST_READ_CEILING only: keeping every such read
//   out would leave those records unread for good, and the read's contract check (code, symbol,
//   decimals) is what their validation level rests on.
// - block: its time after 1970-01-01 (a node answering 0 has no clock), within
//   max_block_age_hours before the run's clock and at most BLOCK_AHEAD_MINUTES after it, and, on the
//   chain of the value it replaces, a later block at the same time or later.
import { parse } from 'yaml';
import type { PlannedChange } from '../shared/changes.ts';
import { withReadsKept } from './guards.ts';

/** The loosest bounds; the configuration may only tighten them. */
export const PLAUSIBILITY_BOUNDS = {
  max_decimals: 36,
  max_supply_multiple: 10,
  max_block_age_hours: 24,
} as const;
export type PlausibilityLimits = { [K in keyof typeof PLAUSIBILITY_BOUNDS]: number };

/**
 * The most tokens a first read with no known figure may show: 10^15, over 5,000 times the largest
 * stablecoin's supply (USDT, about 1.8 × 10^11 in 2026); 2^256−1 of an 18-decimal token is 10^59.
 */
export const FIRST_READ_CEILING = 1e15;

/** A node's clock may run this far ahead of the run's (NTP skew), no further. */
export const BLOCK_AHEAD_MINUTES = 10;

export interface Refusal {
  path: string;
  /** The read, keyed as guards.ts keys figures (`deployments ETH 0xabc… supply`). */
  at: string;
  /** What the read said, for the reviewer. */
  read: string;
  reasons: string[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const lower = (v: unknown) => String(v).toLowerCase();

interface LedgerRead {
  at: string;
  /** False for an asset's read that found no contract code at the address (no supply, no decimals). */
  code: boolean;
  supply: number | null;
  decimals: unknown;
  chainId: unknown;
  blockNumber: unknown;
  blockTime: unknown;
  json: string;
}

/** The ledger reads of a coin or asset file, by key; null when the file is not one. */
function readsOf(path: string, doc: unknown): Map<string, LedgerRead> {
  const out = new Map<string, LedgerRead>();
  if (!isObj(doc)) return out;
  const add = (at: string, r: Obj, supply: unknown) =>
    out.set(at, {
      at,
      code: r['code'] !== false,
      supply: num(supply),
      decimals: r['decimals'],
      chainId: r['chain_id'],
      blockNumber: r['block_number'],
      blockTime: r['block_time'],
      json: JSON.stringify(r),
    });
  if (path.startsWith('data/stablecoins/'))
    for (const d of list(doc['deployments']))
      if (isObj(d['supply']))
        add(
          `deployments ${d['ledger']} ${lower(d['contract_address'])} supply`,
          d['supply'],
          d['supply']['value'],
        );
  if (path.startsWith('data/assets/')) {
    const validation = isObj(doc['validation']) ? doc['validation'] : {};
    const evidence = isObj(validation['evidence']) ? validation['evidence'] : {};
    for (const e of list(evidence['technical']))
      if (e['method'] === 'rpc')
        add(`technical ${e['ledger']} ${lower(e['contract_address'])} supply`, e, e['supply']);
  }
  return out;
}

/** Whether the record says its token is live (a zero supply is then a wrong read). */
function isLive(path: string, doc: Obj): boolean {
  if (path.startsWith('data/stablecoins/'))
    return isObj(doc['status']) && doc['status']['value'] === 'live';
  return doc['lifecycle_status'] === 'active';
}

/** Figures known without this read, with what they are, for the supply's upper bound. */
function knownFigures(path: string, before: Obj, at: string): [string, number][] {
  const known: [string, number][] = [];
  const push = (what: string, v: unknown) => {
    const n = num(v);
    if (n !== null && n > 0) known.push([what, n]);
  };
  for (const [key, read] of readsOf(path, before))
    push(
      key === at ? 'the value it replaces' : `the read ${key.replace(/ supply$/, '')}`,
      read.supply,
    );
  if (path.startsWith('data/stablecoins/')) {
    const circulating = before['circulating_supply'];
    if (isObj(circulating)) push("the coin's circulating supply", circulating['value']);
  } else {
    // A token counted in units of a currency amount would be worth under 1/multiple of a unit.
    const amount = before['amount'];
    if (isObj(amount)) push(`the asset's ${String(amount['kind'])}`, amount['value']);
    const validation = isObj(before['validation']) ? before['validation'] : {};
    const evidence = isObj(validation['evidence']) ? validation['evidence'] : {};
    for (const e of list(evidence['technical']))
      if (e['method'] !== 'rpc')
        push(`the ${String(e['method'])} evidence of ${String(e['ledger'])}`, e['supply']);
  }
  return known;
}

/** A figure as a reviewer reads it; one past any real supply in exponent form. */
const fmt = (n: number) =>
  n >= 1e15 ? n.toExponential(6) : n.toLocaleString('en-US', { maximumFractionDigits: 6 });

function reasonsFor(
  read: LedgerRead,
  previous: LedgerRead | undefined,
  context: { path: string; before: Obj; after: Obj; limits: PlausibilityLimits; clockMs: number },
): string[] {
  const { limits, clockMs } = context;
  const reasons: string[] = [];
  // No code at the address: there is no token to read decimals or a supply of. The read would
  // demote the record, so an editor looks at it first.
  if (!read.code) reasons.push('no contract code at the address at this block');
  else reasons.push(...tokenReasons(read, previous, context));
  reasons.push(...blockReasons(read, previous, limits, clockMs));
  return reasons;
}

/** What is implausible in a token's decimals and supply. */
function tokenReasons(
  read: LedgerRead,
  previous: LedgerRead | undefined,
  context: { path: string; before: Obj; after: Obj; limits: PlausibilityLimits },
): string[] {
  const { limits } = context;
  const reasons: string[] = [];
  const d = read.decimals;
  if (typeof d !== 'number' || !Number.isInteger(d) || d < 0 || d > limits.max_decimals)
    reasons.push(`decimals ${String(d)} is outside 0–${limits.max_decimals}`);
  else if (previous && typeof previous.decimals === 'number' && previous.decimals !== d)
    reasons.push(`decimals ${d} differs from the recorded ${previous.decimals}`);

  const supply = read.supply;
  if (supply === null) reasons.push('the supply is not a finite number');
  else if (supply === 0) {
    if (isLive(context.path, context.after)) reasons.push('the supply is zero for a live token');
  } else {
    const known = knownFigures(context.path, context.before, read.at);
    const largest = known.reduce<[string, number] | null>(
      (a, b) => (a === null || b[1] > a[1] ? b : a),
      null,
    );
    if (!largest) {
      // A first read with nothing to compare it with: only the absolute ceiling applies.
      if (supply > FIRST_READ_CEILING)
        reasons.push(
          `the supply ${fmt(supply)} is more than ${fmt(FIRST_READ_CEILING)}, the most any token without a known figure may read`,
        );
    } else if (supply > limits.max_supply_multiple * largest[1])
      reasons.push(
        `the supply ${fmt(supply)} is more than ${limits.max_supply_multiple} × ${largest[0]} (${fmt(largest[1])})`,
      );
  }
  return reasons;
}

/** What is implausible in the block a read was made at: its time, and its order after the recorded one. */
function blockReasons(
  read: LedgerRead,
  previous: LedgerRead | undefined,
  limits: PlausibilityLimits,
  clockMs: number,
): string[] {
  const reasons: string[] = [];
  const time = typeof read.blockTime === 'string' ? Date.parse(read.blockTime) : NaN;
  const hours = limits.max_block_age_hours;
  if (!Number.isFinite(time) || time <= 0)
    reasons.push(`the block time ${String(read.blockTime)} is no time (a node answering 0)`);
  else if (time < clockMs - hours * 3_600_000)
    reasons.push(
      `the block time ${String(read.blockTime)} is more than ${hours} h before the run's clock (${new Date(clockMs).toISOString()})`,
    );
  else if (time > clockMs + BLOCK_AHEAD_MINUTES * 60_000)
    reasons.push(
      `the block time ${String(read.blockTime)} is ahead of the run's clock (${new Date(clockMs).toISOString()})`,
    );
  if (previous && previous.chainId === read.chainId) {
    const [was, now] = [num(previous.blockNumber), num(read.blockNumber)];
    const wasTime = typeof previous.blockTime === 'string' ? Date.parse(previous.blockTime) : NaN;
    if (was !== null && (now === null || now <= was))
      reasons.push(`block ${String(read.blockNumber)} is not after the recorded block ${was}`);
    else if (Number.isFinite(wasTime) && Number.isFinite(time) && time < wasTime)
      reasons.push(`the block time goes back from the recorded ${String(previous.blockTime)}`);
  }
  return reasons;
}

const describeRead = (r: LedgerRead) =>
  `${r.code ? `supply ${r.supply === null ? 'none' : fmt(r.supply)}, ${String(r.decimals)} decimals` : 'no code'}, block ${String(r.blockNumber)} at ${String(r.blockTime)}`;

/**
 * Splits planned changes into those published and the reads refused. A refused read keeps its
 * previous value and the rest of its file is published; where it cannot be put back alone (a
 * first rpc evidence entry), the file's change is left out whole.
 */
export function checkPlausible(
  planned: readonly PlannedChange[],
  limits: PlausibilityLimits,
  clockMs: number,
): { publish: PlannedChange[]; refused: Refusal[] } {
  const publish: PlannedChange[] = [];
  const refused: Refusal[] = [];
  for (const change of planned) {
    let before: unknown;
    let after: unknown;
    try {
      before = change.before === null ? {} : parse(change.before);
      after = parse(change.after);
    } catch {
      publish.push(change); // data:check explains a file that does not parse
      continue;
    }
    if (!isObj(before) || !isObj(after)) {
      publish.push(change);
      continue;
    }
    const was = readsOf(change.path, before);
    const failed: Refusal[] = [];
    for (const read of readsOf(change.path, after).values()) {
      const previous = was.get(read.at);
      if (previous?.json === read.json) continue;
      const reasons = reasonsFor(read, previous, {
        path: change.path,
        before,
        after,
        limits,
        clockMs,
      });
      if (reasons.length)
        failed.push({ path: change.path, at: read.at, read: describeRead(read), reasons });
    }
    if (!failed.length) {
      publish.push(change);
      continue;
    }
    refused.push(...failed);
    const rest = withReadsKept(change, failed);
    if (
      rest !== null &&
      change.before !== null &&
      JSON.stringify(parse(rest)) !== JSON.stringify(before)
    )
      publish.push({ ...change, after: rest });
  }
  return { publish, refused };
}
