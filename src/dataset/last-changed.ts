// The date a record last changed, derived from its data (never typed by hand): the newest of
// every `as_of` in it (the record's own, each figure's and each history point's), each
// `counts_as_of`, and each source's `published` date (a new or newer source is a change). A
// source's `accessed` date is not counted: re-reading a source that says the same changes nothing.
// `changed_since=` on the dataset operations compares it; /docs/methodology states the rule.
import type { ParamSpec } from './params.ts';

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

export const CHANGED_SINCE_PARAM: ParamSpec = {
  name: 'changed_since',
  description:
    'Only the records changed after this date (strictly): those whose `last_changed` is later. `last_changed` is derived from the data: the newest of the record’s `as_of` dates (its own, its figures’ and their history points’), `counts_as_of`, and its sources’ `published` dates (a source re-read unchanged is not a change). To sync, ask with the date of your last sync and compare `meta.dataset_version`.',
  pattern: /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/,
  format: 'a date, YYYY-MM-DD',
  normalise: (s) => s.trim(),
  maxLength: 10,
  example: '2026-06-30',
};
