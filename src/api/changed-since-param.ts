// The `changed_since` parameter of the dataset operations: compares each record's
// `last_changed` (derived at build, dataset/last-changed.ts).
import { isCalendarDate } from '../lib/calendar-date.ts';
import type { ParamSpec } from './params.ts';

export const CHANGED_SINCE_PARAM: ParamSpec = {
  name: 'changed_since',
  description:
    'Only the records changed after this date (strictly): those whose `last_changed` is later. `last_changed` is derived from the data: the newest of the record’s `as_of` dates (its own, its figures’ and their history points’), `counts_as_of`, and its sources’ `published` dates (a source re-read unchanged is not a change). To sync, ask with the date of your last sync and compare `meta.dataset_version`.',
  pattern: /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/,
  format: 'a date, YYYY-MM-DD',
  normalise: (s) => s.trim(),
  maxLength: 10,
  example: '2026-06-30',
  check: (v) => (isCalendarDate(v) ? null : `is not a day of the calendar (${v} does not exist)`),
};
