// The replay bound of the metering journal: a segment is a file on local disk, and well-formed
// lines can still claim more than the instance could have answered (a 45 MB segment once billed
// 300,000,000,000 requests to one key in one day). At replay, the counts of each group (a key and
// a day, for usage) are capped at the stated maximum rate over the part of that day the segment's
// own lines span; the excess is held back (quarantined and counted), the rest is billed.
import { LINE_ALLOWANCE_MS } from './journal-entries.ts';

export interface ReplayBound<K> {
  /** What the cap is per, for messages ("key and day"). */
  groupName: string;
  /** The group a key bills to, and the UTC day (YYYY-MM-DD) its counts belong to. */
  groupOf(key: K): { group: string; day: string };
  /** The stated maximum: requests per second one instance answers. */
  maxPerSecond: number;
}

const DAY_MS = 86_400_000;

/**
 * The time, in ms, within `day` that a segment's lines may account for: the stamped span widened
 * by one line's allowance on each side and cut to the day, plus one allowance per unstamped line
 * (anywhere: its time is not known).
 */
export function spanWithin(day: string, stamps: readonly number[], unstamped: number): number {
  let ms = unstamped * LINE_ALLOWANCE_MS;
  if (stamps.length) {
    const from = Math.min(...stamps) - LINE_ALLOWANCE_MS;
    const to = Math.max(...stamps) + LINE_ALLOWANCE_MS;
    const start = Date.parse(`${day}T00:00:00Z`);
    ms += Math.max(0, Math.min(to, start + DAY_MS) - Math.max(from, start));
  }
  return Math.min(ms, DAY_MS);
}

/**
 * The counts of a segment past the bound, per key: within a group, entries are billed in a fixed
 * order (by key) up to the cap, and what is left of each is its excess.
 */
export function overCap<K>(
  entries: readonly { key: K; n: number }[],
  stamps: readonly number[],
  unstamped: number,
  bound: ReplayBound<K>,
): { key: K; excess: number; cap: number }[] {
  const groups = new Map<string, { day: string; entries: { key: K; n: number; id: string }[] }>();
  for (const e of entries) {
    const { group, day } = bound.groupOf(e.key);
    let g = groups.get(group);
    if (!g) groups.set(group, (g = { day, entries: [] }));
    g.entries.push({ ...e, id: JSON.stringify(e.key) });
  }
  const out: { key: K; excess: number; cap: number }[] = [];
  for (const g of groups.values()) {
    const cap = Math.floor((bound.maxPerSecond * spanWithin(g.day, stamps, unstamped)) / 1000);
    let left = cap;
    for (const e of g.entries.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
      const billed = Math.min(e.n, left);
      left -= billed;
      if (e.n > billed) out.push({ key: e.key, excess: e.n - billed, cap });
    }
  }
  return out;
}
