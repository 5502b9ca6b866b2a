// Cross-file and code-table rules, each a small named check run after the per-file schema.
import path from 'node:path';
import { evidenceOf, type AssetRecord } from '../domain/asset.ts';
import type { CodeTables } from '../domain/codes.ts';
import type { FxFile, StablecoinRecord, VenuesFile } from '../domain/market.ts';
import type { CategoriesFile, JurisdictionsFile, MemberStateRecord } from '../domain/mica.ts';
import type { LoadedMicaExtras } from './mica-load.ts';
import { parseTfin } from '../domain/identifiers.ts';
import { DERIVED_FACTORS } from './derive.ts';
import { closest } from './zod-problems.ts';
import type { DataProblem } from './problems.ts';
import { problemAt, type YamlFile } from './yaml-file.ts';

export interface Loaded<T> {
  file: YamlFile;
  record: T;
  /** The record failed its schema: it is checked too, but may lack what a check reads. */
  schemaFailed?: true;
}

export type LoadedAsset = Loaded<AssetRecord>;

export interface LoadedMarket {
  stablecoins: Loaded<StablecoinRecord>[];
  venues: Loaded<VenuesFile> | null;
  fx: Loaded<FxFile> | null;
}

export interface LoadedMica extends LoadedMicaExtras {
  categories: Loaded<CategoriesFile> | null;
  memberStates: Loaded<MemberStateRecord>[];
  jurisdictions: Loaded<JurisdictionsFile> | null;
}

export interface CheckContext {
  assets: LoadedAsset[];
  /** null when data/stablecoins does not exist (e.g. in asset-only fixtures). */
  market: LoadedMarket | null;
  mica: LoadedMica | null;
  codes: CodeTables;
  /** The latest date any record may carry (today, at build time). */
  today: string;
  /** The date the release describes (data/release.yaml): figures are aged at it. */
  datasetDate: string;
}

export interface DataCheck {
  name: string;
  run(ctx: CheckContext): DataProblem[];
}

export const oneOf = (value: string, allowed: readonly string[]) => {
  const near = closest(value, allowed);
  return near
    ? `use "${near}" (allowed: ${allowed.join(', ')})`
    : `use one of: ${allowed.join(', ')}`;
};

export type Report = (at: (string | number)[], message: string, fix: string) => void;

/**
 * A check run record by record over what `pick` selects. A record that failed its schema may lack
 * what the check reads: the schema already reported that, so an error on such a record ends the
 * check for it. On a valid record an error is a bug in the check, and is thrown.
 */
export function perRecord<T>(
  name: string,
  pick: (ctx: CheckContext) => Loaded<T>[],
  fn: (item: Loaded<T>, ctx: CheckContext, report: Report) => void,
): DataCheck {
  return {
    name,
    run(ctx) {
      const problems: DataProblem[] = [];
      for (const item of pick(ctx)) {
        try {
          fn(item, ctx, (at, message, fix) =>
            problems.push(problemAt(item.file, at, name, message, fix)),
          );
        } catch (err) {
          if (!item.schemaFailed) throw err;
        }
      }
      return problems;
    },
  };
}

/** A value that must not repeat across files; null values are skipped. */
export function uniqueBy<T>(
  name: string,
  pick: (ctx: CheckContext) => Loaded<T>[],
  valueOf: (record: T) => string | null | undefined,
  at: (string | number)[],
  message: (firstFile: string) => string,
  fix: string,
): DataCheck {
  return {
    name,
    run(ctx) {
      const seen = new Map<string, string>();
      const problems: DataProblem[] = [];
      for (const { file, record } of pick(ctx)) {
        const value = valueOf(record);
        if (typeof value !== 'string' || !value) continue;
        const first = seen.get(value);
        if (first) problems.push(problemAt(file, at, name, message(first), fix));
        else seen.set(value, file.file);
      }
      return problems;
    },
  };
}

/** The file is named after the record's id: `<id>.yaml`. */
export function namedAfter<T>(
  name: string,
  pick: (ctx: CheckContext) => Loaded<T>[],
  idField: keyof T & string,
): DataCheck {
  return perRecord<T>(name, pick, ({ file, record }, _ctx, report) => {
    const id = String(record[idField]);
    const actual = path.posix.basename(file.file);
    if (actual !== `${id}.yaml`)
      report(
        [idField],
        `does not match the file name "${actual}"`,
        `rename the file to ${id}.yaml, or correct the ${idField}`,
      );
  });
}

/** Dates after `today`, each at its path: data describe what is known today. */
export function reportFutureDates(
  dated: [(string | number)[], string | null | undefined][],
  today: string,
  report: Report,
): void {
  for (const [at, date] of dated)
    if (date && date > today)
      report(
        at,
        `${date} is in the future`,
        `data describe what is known today (${today}): correct the date`,
      );
}

const assetsOf = (ctx: CheckContext) => ctx.assets;
const perAsset = (name: string, fn: (a: LoadedAsset, ctx: CheckContext, report: Report) => void) =>
  perRecord<AssetRecord>(name, assetsOf, fn);

export const fileNameMatchesId = namedAfter<AssetRecord>('file-name-matches-id', assetsOf, 'tfin');

export const uniqueTfin = uniqueBy<AssetRecord>(
  'unique-tfin',
  assetsOf,
  (r) => (typeof r.tfin === 'string' ? r.tfin.toUpperCase() : null),
  ['tfin'],
  (first) => `repeats the ID already used by ${first}`,
  'give this asset the next free sequence number',
);

export const uniqueIsin = uniqueBy<AssetRecord>(
  'unique-isin',
  assetsOf,
  (r) => r.identifiers?.isin,
  ['identifiers', 'isin'],
  (first) => `is already mapped to ${first}`,
  'one ISIN maps to one registry record: merge the records or correct the ISIN',
);

export const tfinParts = perAsset('tfin-parts', ({ record }, { codes }, report) => {
  const parts = parseTfin(record.tfin);
  if (!parts) return;
  const classes = codes.tfic.classes.map((c) => c.code);
  const ledgers = codes.ledgers.ledgers.map((l) => l.code);
  if (!classes.includes(parts.assetClass))
    report(
      ['tfin'],
      `uses the unknown class code "${parts.assetClass}"`,
      oneOf(parts.assetClass, classes),
    );
  if (!ledgers.includes(parts.ledger))
    report(
      ['tfin'],
      `uses the unknown ledger code "${parts.ledger}"`,
      oneOf(parts.ledger, ledgers),
    );
  if (record.tfic.split('.')[0] !== parts.assetClass)
    report(
      ['tfic'],
      `is in class ${record.tfic.split('.')[0]} but the TFIN says ${parts.assetClass}`,
      'make the TFIN class and the TFIC class the same',
    );
  const first = record.ledgers[0]?.ledger;
  if (first && first !== parts.ledger)
    report(
      ['ledgers', 0, 'ledger'],
      `is ${first} but the TFIN names ${parts.ledger} as the ledger of first issuance`,
      'list the ledger of first issuance first, or correct the TFIN',
    );
  const launchYear = Number(record.dates.launch_date.slice(0, 4));
  // A malformed launch date is the schema's to report.
  if (/^\d{4}-\d{2}-\d{2}$/.test(record.dates.launch_date) && launchYear !== parts.year)
    report(
      ['tfin'],
      `says ${parts.year} but dates.launch_date is in ${launchYear}`,
      'the TFIN year is the issuance year: make them agree',
    );
  if (parts.sequence === 0) report(['tfin'], 'has sequence 0000', 'sequences start at 0001');
});

export const codesKnown = perAsset('codes-known', ({ record }, { codes }, report) => {
  const tficCodes = codes.tfic.classes.flatMap((c) =>
    c.categories.map((k) => `${c.code}.${k.code}`),
  );
  if (!tficCodes.includes(record.tfic))
    report(
      ['tfic'],
      `"${record.tfic}" is not in data/codes/tfic.yaml`,
      oneOf(record.tfic, tficCodes),
    );
  const ledgers = codes.ledgers.ledgers.map((l) => l.code);
  record.ledgers.forEach((l, i) => {
    if (!ledgers.includes(l.ledger))
      report(
        ['ledgers', i, 'ledger'],
        `"${l.ledger}" is not in data/codes/ledgers.yaml`,
        oneOf(l.ledger, ledgers),
      );
  });
  const statuses = codes.micaStatus.statuses.map((s) => s.code);
  if (!statuses.includes(record.mica.status))
    report(
      ['mica', 'status'],
      `"${record.mica.status}" is not in data/codes/mica-status.yaml`,
      oneOf(record.mica.status, statuses),
    );
  const custodyFields = [
    ['model', 'custody_model'],
    ['segregation', 'segregation'],
    ['custodian_status', 'custodian_status'],
    ['register', 'register'],
  ] as const;
  for (const [field, table] of custodyFields) {
    const allowed = Object.keys(codes.custody[table]);
    const value = record.custody[field];
    if (!allowed.includes(value))
      report(
        ['custody', field],
        `"${value}" is not in data/codes/custody.yaml (${table})`,
        oneOf(value, allowed),
      );
  }
});

export const riskFactorsKnown = perAsset('risk-factors-known', ({ record }, { codes }, report) => {
  for (const [vector, table] of Object.entries(codes.riskFactors.vectors)) {
    const declared = record.risk_factors[vector as keyof typeof record.risk_factors] ?? {};
    const derived = DERIVED_FACTORS[vector as keyof typeof DERIVED_FACTORS] ?? [];
    for (const factor of Object.keys(table)) {
      if (derived.includes(factor)) {
        if (factor in declared)
          report(
            ['risk_factors', vector, factor],
            'is derived from dates.launch_date and as_of',
            `remove "${factor}"`,
          );
        continue;
      }
      const value = declared[factor];
      const allowed = Object.keys(table[factor] ?? {});
      if (value === undefined)
        report(
          ['risk_factors', vector],
          `does not declare the factor "${factor}"`,
          `add "${factor}:" with one of: ${allowed.join(', ')}`,
        );
      else if (!allowed.includes(value))
        report(
          ['risk_factors', vector, factor],
          `"${value}" is not a value of this factor in data/codes/risk-factors.yaml`,
          oneOf(value, allowed),
        );
    }
    for (const factor of Object.keys(declared)) {
      if (!(factor in table))
        report(
          ['risk_factors', vector, factor],
          `is not a factor of the ${vector} vector`,
          oneOf(factor, Object.keys(table)),
        );
    }
  }
});

export const sourceReferences = perAsset('source-references', ({ record }, _ctx, report) => {
  const ids = new Set<string>();
  record.sources.forEach((s, i) => {
    if (ids.has(s.id))
      report(
        ['sources', i, 'id'],
        `repeats the source id "${s.id}"`,
        'give every source in the file its own id',
      );
    ids.add(s.id);
  });
  if (record.amount && !ids.has(record.amount.source))
    report(
      ['amount', 'source'],
      `names "${record.amount.source}", which is not a source of this record`,
      `use one of: ${[...ids].join(', ')}`,
    );
});

// Commodity-backed tokens are not securities by nature: MiCA may treat them as ARTs.
const SECURITY_CLASSES = ['DEBT', 'FUND', 'EQTY', 'STRU', 'CRED'];
export const micaConsistentWithClass = perAsset(
  'mica-status-consistent',
  ({ record }, _ctx, report) => {
    const assetClass = record.tfic.split('.')[0]!;
    const status = record.mica.status;
    if (assetClass === 'DEPO' && status !== 'deposit' && status !== 'not_offered_in_eu') {
      report(
        ['mica', 'status'],
        `is "${status}" for a tokenized deposit`,
        'tokenized deposits are deposits, outside MiCA (Art. 2(4)(c)): use "deposit"',
      );
    }
    if (SECURITY_CLASSES.includes(assetClass) && ['emt', 'art', 'deposit'].includes(status)) {
      report(
        ['mica', 'status'],
        `is "${status}" for a ${assetClass} instrument`,
        'a tokenized security or fund unit is a MiFID II financial instrument: use "financial_instrument" (or "other_crypto_asset" with a rationale for a non-security claim)',
      );
    }
  },
);

export const noFutureDates = perAsset('no-future-dates', ({ record }, { today }, report) => {
  const dated: [(string | number)[], string | null | undefined][] = [
    [['as_of'], record.as_of],
    [['amount', 'as_of'], record.amount?.as_of],
    [['dates', 'end_date'], record.dates.end_date],
    ...(record.amount?.history ?? []).map((h, i): [(string | number)[], string] => [
      ['amount', 'history', i, 'as_of'],
      h.as_of,
    ]),
    ...evidenceOf(record.validation).technical.map((e, i): [(string | number)[], string] => [
      ['validation', 'evidence', 'technical', i, 'as_of'],
      e.as_of,
    ]),
    ...record.sources.flatMap((s, i): [(string | number)[], string | null][] => [
      [['sources', i, 'accessed'], s.accessed],
      [['sources', i, 'published'], s.published],
    ]),
  ];
  reportFutureDates(dated, today, report);
  if (record.amount && record.amount.as_of > record.as_of)
    report(
      ['as_of'],
      `is earlier than amount.as_of (${record.amount.as_of})`,
      'as_of is the date of the latest dated fact in the record: raise it',
    );
});

export const ASSET_CHECKS: readonly DataCheck[] = [
  fileNameMatchesId,
  uniqueTfin,
  uniqueIsin,
  tfinParts,
  codesKnown,
  riskFactorsKnown,
  sourceReferences,
  micaConsistentWithClass,
  noFutureDates,
];
