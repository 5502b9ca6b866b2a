// Every named data rule, in the order `npm run data:check` runs them (after each file's schema).
// A rule is one file in this folder with the shape of rule.ts's DataCheck; add it here, and a
// fixture with its pinned messages under test/fixtures/ (test/data/fixtures.test.ts fails without).
import type { DataCheck } from './rule.ts';
import { fileNameMatchesId } from './file-name-matches-id.ts';
import { uniqueTfin } from './unique-tfin.ts';
import { uniqueIsin } from './unique-isin.ts';
import { tfinParts } from './tfin-parts.ts';
import { codesKnown } from './codes-known.ts';
import { ledgerCodesUnique } from './ledger-codes-unique.ts';
import { ledgerAliasesUnique } from './ledger-aliases-unique.ts';
import { ledgerChainIdsUnique } from './ledger-chain-ids-unique.ts';
import { ledgerChainIdEvmOnly } from './ledger-chain-id-evm-only.ts';
import { riskFactorsKnown } from './risk-factors-known.ts';
import { sourceReferences } from './source-references.ts';
import { micaConsistentWithClass } from './mica-status-consistent.ts';
import { noFutureDates } from './no-future-dates.ts';
import { validationEvidence } from './validation-evidence.ts';
import { endDateForEndedAssets } from './end-date.ts';
import { figureSourcePrimary } from './figure-source-primary.ts';
import { figureFreshness } from './figure-freshness.ts';
import { figureHistoryOrdered } from './figure-history-ordered.ts';
import { sourceDomainPolicy } from './source-domain-policy.ts';
import { stablecoinFileName } from './stablecoin-file-name.ts';
import { stablecoinUnique } from './stablecoin-unique.ts';
import { stablecoinReferences } from './stablecoin-references.ts';
import { stablecoinAuthorisation } from './stablecoin-authorisation.ts';
import { venuesCount } from './venues-count.ts';
import { venueRules } from './venue-rules.ts';
import { fxReferences } from './fx-references.ts';
import { marketTotals } from './market-totals.ts';
import { marketDatesNotFuture } from './stablecoin-no-future-dates.ts';
import { categoriesComplete } from './mica-categories-complete.ts';
import { jurisdictionsRules } from './jurisdictions.ts';
import { memberStateFiles } from './member-state-files.ts';
import { countsAddUp } from './member-state-counts-add-up.ts';
import { countsMatchRegister } from './member-state-counts-match-register.ts';
import { transitionalComplete } from './transitional-periods-complete.ts';
import { textSafe } from './text-safe.ts';
import { noResearchDiary, noResearchWording } from './no-research-wording.ts';
import { siblingsAgree } from './siblings-agree.ts';
import { unknownFactorReason } from './unknown-factor-reason.ts';
import { noGuessedValue } from './no-guessed-value.ts';
import { artHasAuthorisation } from './art-has-authorisation.ts';
import { registerRowPerToken } from './register-row-per-token.ts';
import { nullReasonNoFigure, staleReasonNoFigure } from './null-reason-no-figure.ts';

export const RULES: readonly DataCheck[] = [
  fileNameMatchesId,
  uniqueTfin,
  uniqueIsin,
  tfinParts,
  codesKnown,
  ledgerCodesUnique,
  ledgerAliasesUnique,
  ledgerChainIdsUnique,
  ledgerChainIdEvmOnly,
  riskFactorsKnown,
  siblingsAgree,
  sourceReferences,
  micaConsistentWithClass,
  noFutureDates,
  validationEvidence,
  endDateForEndedAssets,
  figureSourcePrimary,
  figureFreshness,
  figureHistoryOrdered,
  sourceDomainPolicy,
  stablecoinFileName,
  stablecoinUnique,
  stablecoinReferences,
  stablecoinAuthorisation,
  venuesCount,
  venueRules,
  fxReferences,
  marketTotals,
  marketDatesNotFuture,
  categoriesComplete,
  jurisdictionsRules,
  memberStateFiles,
  countsAddUp,
  countsMatchRegister,
  transitionalComplete,
  noResearchWording,
  textSafe,
  noResearchDiary,
  unknownFactorReason,
  noGuessedValue,
  artHasAuthorisation,
  registerRowPerToken,
  nullReasonNoFigure,
  staleReasonNoFigure,
];
