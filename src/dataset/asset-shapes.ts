// Shapes a derived record into the API's two record shapes: the full profile and the list summary.
import { evidenceOf, type AssetRecord } from '../domain/asset.ts';
import type { CodeTables } from '../domain/codes.ts';
import type { AssetProfile, AssetSummary } from '../domain/api.ts';
import { custodyGrade, gtdsCompliance, riskProfile } from './derive.ts';
import { daysBetween, ENDED } from './figures.ts';
import { isPastMaxAge } from './freshness.ts';
import type { FxFile } from '../domain/market.ts';
import { FX_MAX_AGE_DAYS, usdRate } from './stablecoins.ts';
import { lastChanged } from './last-changed.ts';
import { micaAuthorisation, type MicaRegisters } from './mica-authorisation.ts';

const NO_REGISTERS: MicaRegisters = { art: null, emt: null };

/**
 * An amount in USD: USD amounts as they are; others at the ECB reference rate on or before the
 * amount's date, at most FX_MAX_AGE_DAYS older (the rule of the stablecoin market caps, data/fx.yaml),
 * rounded to the unit; null when no such rate is in the data. `fx` names the rate (null for USD).
 */
export function amountInUsd(
  amount: { value: number; currency: string; as_of: string },
  fx: FxFile | null,
): {
  value_usd: number | null;
  fx: { rate: number; date: string; source: string | null } | null;
  usd_null_reason: string | null;
} {
  const rate = usdRate(fx, amount.currency, amount.as_of);
  if (!rate)
    return {
      value_usd: null,
      fx: null,
      usd_null_reason: `Not converted to USD: no ECB euro reference rate for ${amount.currency === 'EUR' ? 'USD' : `${amount.currency} and USD`} of a day on or up to ${FX_MAX_AGE_DAYS} days before ${amount.as_of} (the amount's date) is held.`,
    };
  return {
    value_usd: Math.round(amount.value * rate.rate),
    fx: amount.currency === 'USD' ? null : rate,
    usd_null_reason: null,
  };
}

/** The profile's ledgers: each with the ledger's name and type from the code table. */
function profileLedgers(record: AssetRecord, codes: CodeTables): AssetProfile['ledgers'] {
  return record.ledgers.map((l) => {
    const entry = codes.ledgers.ledgers.find((x) => x.code === l.ledger)!;
    return {
      ledger: l.ledger,
      name: entry.name,
      type: entry.type,
      token_standard: l.token_standard,
      contract_address: l.contract_address,
      contract_address_null_reason: l.contract_address_null_reason ?? null,
    };
  });
}

/** The profile's amount: its age and staleness on the dataset date, and its value in USD. */
function profileAmount(
  record: AssetRecord,
  amount: NonNullable<AssetRecord['amount']>,
  codes: CodeTables,
  datasetDate: string,
  fx: FxFile | null,
): NonNullable<AssetProfile['amount']> {
  return {
    kind: amount.kind,
    value: amount.value,
    currency: amount.currency,
    as_of: amount.as_of,
    age_days: daysBetween(amount.as_of, datasetDate),
    stale:
      !ENDED.has(record.lifecycle_status) &&
      isPastMaxAge(amount.kind, amount.as_of, datasetDate, codes.sourcePolicy.max_age_days),
    source: amount.source,
    stale_reason: amount.stale_reason ?? null,
    ...amountInUsd(amount, fx),
    history: amount.history ?? [],
  };
}

export function assetProfile(
  record: AssetRecord,
  codes: CodeTables,
  datasetDate: string,
  fx: FxFile | null = null,
  registers: MicaRegisters = NO_REGISTERS,
): AssetProfile {
  const grade = custodyGrade(record.custody, codes);
  const [classCode, categoryCode] = record.tfic.split('.') as [string, string];
  const tficClass = codes.tfic.classes.find((c) => c.code === classCode)!;
  const category = tficClass.categories.find((c) => c.code === categoryCode)!;
  const status = codes.micaStatus.statuses.find((s) => s.code === record.mica.status)!;
  return {
    tfin: record.tfin,
    kind: record.kind ?? 'asset',
    programme: record.programme ?? null,
    underlying: record.underlying ?? null,
    name: record.name,
    short_name: record.short_name,
    description: record.description,
    classification: {
      asset_class: { code: tficClass.code, name: tficClass.name },
      tfic: { code: record.tfic, name: category.name },
    },
    issuer: {
      name: record.issuer.name,
      sponsor: record.issuer.sponsor,
      lei: record.issuer.lei,
      lei_null_reason: record.issuer.lei_null_reason ?? null,
      jurisdiction: record.issuer.jurisdiction,
      jurisdiction_null_reason: record.issuer.jurisdiction_null_reason ?? null,
      ...(record.issuer.registry ? { registry: record.issuer.registry } : {}),
    },
    parent: record.parent ?? null,
    access: record.access ?? null,
    ledgers: profileLedgers(record, codes),
    isin_mapping: {
      isin: record.identifiers.isin,
      cusip: record.identifiers.cusip,
      figi: record.identifiers.figi,
      dti: record.identifiers.dti ?? null,
      null_reason: record.identifiers.null_reason ?? null,
    },
    mica: {
      status: status.code,
      name: status.name,
      legal_basis: status.legal_basis,
      rationale: record.mica.rationale,
      authorisation: micaAuthorisation(record, registers),
    },
    custody: {
      custodian: record.custody.custodian,
      transfer_agent: record.custody.transfer_agent,
      model: record.custody.model,
      segregation: record.custody.segregation,
      custodian_status: record.custody.custodian_status,
      register: record.custody.register,
      grade: grade.grade,
      grade_points: grade.points,
    },
    settlement: record.settlement,
    risk: riskProfile(record, codes, datasetDate),
    validation: {
      level: record.validation.level,
      basis: record.validation.basis,
      evidence: evidenceOf(record.validation),
    },
    gtds_compliance: gtdsCompliance(record, grade.grade),
    amount: record.amount && profileAmount(record, record.amount, codes, datasetDate, fx),
    amount_null_reason: record.amount_null_reason ?? null,
    minimum_investment: record.minimum_investment,
    minimum_investment_null_reason: record.minimum_investment_null_reason ?? null,
    dates: {
      launch_date: record.dates.launch_date,
      launch_null_reason: record.dates.launch_null_reason ?? null,
      maturity_date: record.dates.maturity_date,
      maturity_null_reason: record.dates.maturity_null_reason ?? null,
      end_date: record.dates.end_date ?? null,
    },
    lifecycle_status: record.lifecycle_status,
    sources: record.sources,
    as_of: record.as_of,
    last_changed: lastChanged(record),
  };
}

export function assetSummary(profile: AssetProfile): AssetSummary {
  return {
    tfin: profile.tfin,
    kind: profile.kind,
    programme: profile.programme,
    // A release built before the profile carried the link (dataset_version=) states none.
    parent: profile.parent ?? null,
    name: profile.name,
    short_name: profile.short_name,
    asset_class: profile.classification.asset_class.code,
    tfic: profile.classification.tfic.code,
    issuer: {
      name: profile.issuer.name,
      jurisdiction: profile.issuer.jurisdiction,
      lei: profile.issuer.lei,
    },
    isin: profile.isin_mapping.isin,
    ledgers: profile.ledgers.map((l) => l.ledger),
    contracts: profile.ledgers.flatMap((l) =>
      l.contract_address ? [`${l.ledger}:${l.contract_address}`] : [],
    ),
    mica_status: profile.mica.status,
    // A release built before authorisations were served (dataset_version=) states none.
    mica_authorisation: profile.mica.authorisation?.status ?? 'unknown',
    custody: profile.custody,
    risk: profile.risk,
    validation_level: profile.validation.level,
    gtds_level: profile.gtds_compliance.level,
    amount: profile.amount && {
      kind: profile.amount.kind,
      value: profile.amount.value,
      currency: profile.amount.currency,
      as_of: profile.amount.as_of,
      age_days: profile.amount.age_days,
      stale: profile.amount.stale,
      source: profile.amount.source,
      value_usd: profile.amount.value_usd,
      fx: profile.amount.fx,
      usd_null_reason: profile.amount.usd_null_reason,
    },
    lifecycle_status: profile.lifecycle_status,
    as_of: profile.as_of,
    last_changed: profile.last_changed,
  };
}
