// Records and their parents (`parent: { tfin, relation }`): a share class and its fund, a wrapper
// and the token it wraps, a feeder and its master fund. A fund's facts are stated once, on the
// parent: a share class inherits those it leaves unknown (inheritFromParents), and the classes of a
// fund must not state them otherwise (siblingDisagreements, data rule `siblings-agree`). Counts
// take a family once (distinctProducts): the parent, or the first record of it present.
import type { AssetRecord } from '../domain/asset.ts';

/** The rule named on a risk factor a share class takes from its fund. */
export const INHERIT_RULE = 'share-class-inherits';

/** Risk factors that describe the fund rather than the class: stated once, on the parent. */
export const FUND_LEVEL_FACTORS: readonly [vector: string, factor: string][] = [
  ['regulatory', 'regime'],
  ['regulatory', 'eu_access'],
  ['counterparty', 'custodian_or_depository'],
  ['operational', 'service_providers'],
];

type Notes = NonNullable<AssetRecord['risk_factor_notes']>;
const stated = (v: unknown): v is string => typeof v === 'string' && v !== 'unknown';

/** A fund-level fact of a record, by name (for messages): its value, or null when unknown. */
function fundFacts(r: AssetRecord): [string, string | null][] {
  const risk = r.risk_factors as Record<string, Record<string, string> | undefined>;
  return [
    ...FUND_LEVEL_FACTORS.map(([v, f]): [string, string | null] => {
      const value = risk[v]?.[f];
      return [`risk_factors.${v}.${f}`, stated(value) ? value : null];
    }),
    ['custody.custodian', r.custody.custodian],
    ['issuer.jurisdiction', r.issuer.jurisdiction],
  ];
}

/**
 * The record as served: a share class with its fund's facts where it states none (factors it
 * leaves unknown, custody without a named custodian, an issuer without a domicile). Other
 * relations inherit nothing: a wrapper or a feeder is a product of its own.
 */
export function withParentFacts(record: AssetRecord, parent: AssetRecord): AssetRecord {
  if (record.parent?.relation !== 'share_class_of') return record;
  const risk = structuredClone(record.risk_factors) as Record<string, Record<string, string>>;
  const notes = structuredClone(record.risk_factor_notes ?? {}) as Record<
    string,
    Record<string, { reason: string } | { rule: string }>
  >;
  const parentRisk = parent.risk_factors as Record<string, Record<string, string> | undefined>;
  for (const [v, f] of FUND_LEVEL_FACTORS) {
    const own = risk[v]?.[f];
    const theirs = parentRisk[v]?.[f];
    if (!stated(own) && stated(theirs)) {
      risk[v] = { ...risk[v], [f]: theirs };
      notes[v] = { ...notes[v], [f]: { rule: INHERIT_RULE } };
    }
  }
  return {
    ...record,
    risk_factors: risk as AssetRecord['risk_factors'],
    risk_factor_notes: notes as Notes,
    custody:
      record.custody.custodian === null && parent.custody.custodian
        ? parent.custody
        : record.custody,
    issuer:
      record.issuer.jurisdiction === null && parent.issuer.jurisdiction
        ? parent.issuer
        : record.issuer,
  };
}

/** Every record with its parent's fund-level facts (a missing parent leaves the record as it is). */
export function inheritFromParents<T extends { record: AssetRecord }>(items: T[]): T[] {
  const byTfin = new Map(items.map((i) => [i.record.tfin, i.record]));
  return items.map((i) => {
    const parent = i.record.parent && byTfin.get(i.record.parent.tfin);
    return parent ? { ...i, record: withParentFacts(i.record, parent) } : i;
  });
}

export interface SiblingDisagreement {
  /** The fund (parent) the classes belong to. */
  parent: string;
  /** The fact, by path, e.g. `risk_factors.regulatory.regime`. */
  fact: string;
  /** Each record that states the fact, with its value. */
  values: { tfin: string; value: string }[];
}

/** Facts a fund's classes (and the fund itself) state differently: one entry per fund and fact. */
export function siblingDisagreements(records: readonly AssetRecord[]): SiblingDisagreement[] {
  const families = new Map<string, AssetRecord[]>();
  const byTfin = new Map(records.map((r) => [r.tfin, r]));
  for (const r of records)
    if (r.parent?.relation === 'share_class_of')
      families.set(r.parent.tfin, [...(families.get(r.parent.tfin) ?? []), r]);
  const out: SiblingDisagreement[] = [];
  for (const [parent, classes] of [...families].sort(([a], [b]) => a.localeCompare(b))) {
    const fund = byTfin.get(parent);
    const members = fund ? [fund, ...classes] : classes;
    const facts = new Map<string, { tfin: string; value: string }[]>();
    for (const m of members)
      for (const [fact, value] of fundFacts(m))
        if (value !== null) facts.set(fact, [...(facts.get(fact) ?? []), { tfin: m.tfin, value }]);
    for (const [fact, values] of facts)
      if (new Set(values.map((v) => v.value)).size > 1) out.push({ parent, fact, values });
  }
  return out;
}

/** Records that count as a product of their own: a record whose parent is in the list is counted there. */
export function distinctProducts<
  R extends { tfin: string; parent?: { tfin: string } | null | undefined },
>(records: readonly R[]): R[] {
  const present = new Set(records.map((r) => r.tfin));
  return records.filter((r) => !r.parent || !present.has(r.parent.tfin));
}
