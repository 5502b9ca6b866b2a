// The compact registry index: per asset, only what filtering and sorting need, so that a
// server can hold 100,000 assets without holding their profiles as objects.
import type { AssetProfile } from '../domain/api.ts';

export interface IndexRow {
  tfin: string;
  name: string;
  asset_class: string;
  tfic: string;
  ledgers: string[];
  mica_status: string;
  jurisdiction: string;
  validation_level: 'unverified' | 'L1' | 'L2' | 'L3';
  risk: number;
  as_of: string;
  /** Lower-cased TFIN, name, short name, issuer and sponsor, for free-text search. */
  text: string;
}

export interface RegistryCoverage {
  assets: number;
  jurisdictions: string[];
  asset_classes: string[];
  ledgers: string[];
}

export function indexRow(a: AssetProfile): IndexRow {
  return {
    tfin: a.tfin,
    name: a.name,
    asset_class: a.classification.asset_class.code,
    tfic: a.classification.tfic.code,
    ledgers: a.ledgers.map((l) => l.ledger),
    mica_status: a.mica.status,
    jurisdiction: a.issuer.jurisdiction,
    validation_level: a.validation.level,
    risk: a.risk.overall.score,
    as_of: a.as_of,
    text: [a.tfin, a.name, a.short_name ?? '', a.issuer.name, a.issuer.sponsor ?? '']
      .join('\n')
      .toLowerCase(),
  };
}

export function registryCoverage(assets: readonly AssetProfile[]): RegistryCoverage {
  const uniq = (xs: string[]) => [...new Set(xs)].sort();
  return {
    assets: assets.length,
    jurisdictions: uniq(assets.map((a) => a.issuer.jurisdiction)),
    asset_classes: uniq(assets.map((a) => a.classification.asset_class.code)),
    ledgers: uniq(assets.flatMap((a) => a.ledgers.map((l) => l.ledger))),
  };
}
