// One test of "a date" for every place that accepts one (query parameters, the keys tool,
// importers): the form YYYY-MM-DD is not enough, the day must exist (2026-02-30 does not).

/** YYYY-MM-DD that names a real day (2026-02-30 and 2026-11-1 are refused). */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() >= 1000 && d.toISOString().slice(0, 10) === value;
}
