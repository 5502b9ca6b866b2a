// What a date of ESMA's EMT register is. The register gives one "authorisation or notification"
// date per row (`ac_authorisationNotificationDate`) without saying which: for a bank or e-money
// institution that held its licence before MiCA it is that licence; for others it repeats a white
// paper's notification. The rule `register-date-kind` tells them apart from the dates alone, and
// a coin's dates come from its own row (the issuer's LEI, the paper's address and notification).
import type { EmtIssuer, EmtToken } from '../domain/mica-register.ts';
import type { MicaDateKind } from '../domain/market.ts';

/** MiCA's rules for e-money tokens (Title IV) apply from this day (Art. 149(3)). */
export const EMT_RULES_APPLY = '2024-06-30';

/** How close (days) a register date must be to a white paper's notification to be that notification. */
const SAME_EVENT_DAYS = 7;

const days = (a: string, b: string) => Math.abs(Date.parse(a) - Date.parse(b)) / 86_400_000;

/**
 * The kind of a register date: before MiCA's EMT rules applied it can only be the issuer's
 * licence as a credit or e-money institution; within a week of one of the issuer's white-paper
 * notifications it is that notification; otherwise what it dates is not stated.
 */
export function registerDateKind(date: string, issuer: Pick<EmtIssuer, 'tokens'>): MicaDateKind {
  if (date < EMT_RULES_APPLY) return 'institution_authorisation';
  const notified = issuer.tokens.flatMap((t) => (t.notified ? [t.notified] : []));
  if (notified.some((n) => days(n, date) <= SAME_EVENT_DAYS)) return 'white_paper_notification';
  return 'not_stated';
}

/**
 * A coin's own register rows: its issuer's rows with the white paper's address, notification and
 * last update (rows alike in these differ only by ESMA's comment, and give the same dates).
 */
export function ownRows(
  issuers: readonly EmtIssuer[],
  lei: string | null,
  paper: { url: string | null; notified: string | null; last_update: string | null },
): { issuer: EmtIssuer; rows: EmtToken[] } | null {
  const issuer = issuers.find((i) => i.lei === lei);
  const rows =
    issuer?.tokens.filter(
      (t) =>
        t.url === paper.url && t.notified === paper.notified && t.last_update === paper.last_update,
    ) ?? [];
  return issuer && rows.length ? { issuer, rows } : null;
}
