// The date a record last changed, derived from its data (never typed by hand): the newest of
// every `as_of` in it (the record's own, each figure's and each history point's), each
// `counts_as_of`, and each source's `published` date (a new or newer source is a change). A
// source's `accessed` date is not counted: re-reading a source that says the same changes nothing.
// `changed_since=` on the dataset operations (api/changed-since-param.ts) compares it; /docs/methodology states the rule.

const DATE_KEYS = new Set(['as_of', 'counts_as_of', 'published']);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;

export function lastChanged(record: unknown): string {
  let newest = '0000-00-00';
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const x of node) walk(x);
      return;
    }
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (DATE_KEYS.has(k) && typeof v === 'string' && ISO_DATE.test(v)) {
        const d = v.slice(0, 10);
        if (d > newest) newest = d;
      } else if (v && typeof v === 'object') walk(v);
    }
  };
  walk(record);
  return newest;
}

/**
 * A stablecoin's last change. Its record's own `as_of` is the date the record was written (by the
 * coins importer or an editor; every coin written the same day carries the same date), not a fact
 * about the coin: it counts only when nothing else in the record is dated. So `changed_since=`
 * finds the coins whose figures, history or sources changed, not every coin re-written.
 */
export function coinLastChanged(record: { as_of?: unknown }): string {
  const { as_of, ...facts } = record;
  const newest = lastChanged(facts);
  return newest === '0000-00-00' ? lastChanged({ as_of }) : newest;
}
