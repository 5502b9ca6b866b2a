// The `dataset_version` parameter (point-in-time reads, releases.ts), in a module of its own so
// that the parameter lists can name it without importing the release loader.
import { VERSION } from '../dataset/version.ts';
import { isCalendarDate } from '../lib/calendar-date.ts';
import type { ParamSpec } from './params.ts';

export const DATASET_VERSION_PARAM: ParamSpec = {
  name: 'dataset_version',
  description:
    'Answer as the named data release did (`meta.dataset_version` of an earlier answer). Answers come from the current data and from the releases committed with the repository (their bodies checked against the release manifest), never from an unreviewed build; such answers never change and are cached as `immutable`. An unknown version is a 404 `dataset_version_not_found` listing the versions available.',
  pattern: VERSION,
  format: 'a dataset version: <YYYY-MM-DD>.<12 hex digits>',
  normalise: (s) => s.trim().toLowerCase(),
  maxLength: 40,
  check: (v) =>
    isCalendarDate(v.slice(0, 10))
      ? null
      : `names a day that does not exist (${v.slice(0, 10)}); dataset versions start with their release date`,
};
