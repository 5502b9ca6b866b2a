// The data report: coverage, identifier coverage, the age of every figure and sources by kind,
// with the release's targets and whether each is met. Printed by `npm run data:report` and
// published as /docs/data-report (built into the dataset core, so both show the same numbers).
import type { AssetRecord } from '../domain/asset.ts';
import type { Source } from '../domain/common.ts';
import type { StablecoinRecord } from '../domain/market.ts';
import type { CodeTables } from '../domain/codes.ts';
import { daysBetween } from './figures.ts';
import type { HonestyReport } from './honesty-report.ts';

export interface FigureAge {
  record: string;
  figure: string;
  as_of: string;
  age_days: number;
  source_kind: string;
  stale_reason: string | null;
  ended: boolean;
}

export interface ReportTarget {
  id: string;
  description: string;
  value: number | string;
  target: string;
  met: boolean;
}

export interface DataReport {
  dataset_date: string;
  coverage: {
    assets: number;
    active_assets: number;
    /** Records by kind: single assets, programmes, and series of a programme. */
    by_kind: Record<string, number>;
    /** Records that are neither equity nor equity trackers (funds, bonds, credit, deposits, commodities, notes). */
    institutional_non_equity: number;
    stablecoins: number;
    by_asset_class: Record<string, number>;
    by_ledger: Record<string, number>;
    by_validation_level: Record<string, number>;
    stablecoins_by_peg: Record<string, number>;
    stablecoins_by_status: Record<string, number>;
    /** Coins with an EMT white paper in ESMA's register. */
    stablecoins_with_white_paper: number;
    /** Per-ledger token contracts of the coins (issued or bridged). */
    stablecoin_deployments: { with: number; of: number };
  };
  identifiers: {
    isin: { with: number; of: number };
    issuer_lei: { with: number; of: number };
    contract_address: { with: number; of: number };
    /** Ledger entries on public EVM ledgers, where every token has a contract address. */
    contract_address_public_evm: { with: number; of: number };
    /** Ledger entries on permissioned ledgers (SDX, Canton, private DLTs): counted apart, an address may not apply. */
    permissioned_ledger_entries: number;
    asset_dti: { with: number; of: number };
    stablecoin_dti: { with: number; of: number };
    stablecoin_issuer_lei: { with: number; of: number };
    stablecoin_isin: { with: number; of: number };
  };
  ages: {
    assets: { oldest: string | null; median: string | null; current_pct: number | null };
    /** Each coin's newest figure (circulating supply or market cap). */
    stablecoin_figures: {
      oldest: string | null;
      median: string | null;
      dated_2026_pct: number | null;
      without_figure: number;
    };
    /** Every figure, oldest first — or the oldest `figureRows` of them when the report was capped. */
    figures: FigureAge[];
    /** How many figures there are in all (more than `figures.length` when capped). */
    figures_total: number;
  };
  sources_by_kind: Record<string, number>;
  /** Guessed, unknown and near-empty values (honesty-report.ts); null when not computed. */
  honesty: HonestyReport | null;
  targets: ReportTarget[];
}

const ENDED = new Set(['matured', 'redeemed', 'closed']);
const count = <T>(items: readonly T[], key: (t: T) => string | readonly string[]) => {
  const out: Record<string, number> = {};
  for (const item of items) for (const k of [key(item)].flat()) out[k] = (out[k] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
};
const lowerMedian = (sorted: readonly string[]) =>
  sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : null;
const pct = (n: number, of: number) => (of ? Math.round((n / of) * 1000) / 10 : null);
const kindOf = (sources: readonly Source[], id: string) =>
  sources.find((s) => s.id === id)?.kind ?? 'unknown';

/** What the report needs of the ledger table: each code's type and virtual machine. */
export type LedgerKinds = ReadonlyMap<string, { type: string; vm?: string | undefined }>;

/** Equity and equity trackers: what the institutional-asset target leaves out. */
const isEquityLike = (a: AssetRecord) => a.tfic.startsWith('EQTY.') || a.tfic === 'STRU.TRCK';

/** Every dated figure of assets and coins with its age, oldest first. */
function figureAges(
  assets: readonly AssetRecord[],
  coins: readonly StablecoinRecord[],
  datasetDate: string,
): FigureAge[] {
  return [
    ...assets.flatMap((a) =>
      a.amount
        ? [
            {
              record: a.tfin,
              figure: a.amount.kind,
              as_of: a.amount.as_of,
              age_days: daysBetween(a.amount.as_of, datasetDate),
              source_kind: kindOf(a.sources, a.amount.source),
              stale_reason: a.amount.stale_reason ?? null,
              ended: ENDED.has(a.lifecycle_status),
            },
          ]
        : [],
    ),
    ...coins.flatMap((c) =>
      (['market_cap', 'circulating_supply'] as const).flatMap((kind) => {
        const f = c[kind];
        if (f.as_of === null || f.source === null) return [];
        return [
          {
            record: c.id,
            figure: kind,
            as_of: f.as_of,
            age_days: daysBetween(f.as_of, datasetDate),
            source_kind: kindOf(c.sources, f.source),
            stale_reason: f.stale_reason ?? null,
            ended: c.status.value !== 'live',
          },
        ];
      }),
    ),
  ].sort((a, b) => b.age_days - a.age_days || a.record.localeCompare(b.record));
}

export function dataReport(
  assets: readonly AssetRecord[],
  coins: readonly StablecoinRecord[],
  datasetDate: string,
  ledgerKinds: LedgerKinds,
  /** Keep only the oldest N figures in `ages.figures` (the built dataset stays small at any size). */
  figureRows = Infinity,
  honesty: HonestyReport | null = null,
): DataReport {
  const active = assets.filter((a) => !ENDED.has(a.lifecycle_status));
  const ledgerEntries = assets.flatMap((a) => a.ledgers);
  const publicEvm = ledgerEntries.filter((l) => {
    const k = ledgerKinds.get(l.ledger);
    return k?.vm === 'evm' && k.type === 'public_permissionless';
  });
  const permissioned = ledgerEntries.filter(
    (l) =>
      /permissioned$/.test(ledgerKinds.get(l.ledger)?.type ?? '') &&
      ledgerKinds.get(l.ledger)?.type !== 'public_permissionless',
  ).length;
  const nonEquity = assets.filter((a) => !isEquityLike(a)).length;
  const evmPct = pct(publicEvm.filter((l) => l.contract_address).length, publicEvm.length);
  const figures = figureAges(assets, coins, datasetDate);

  // A fixed issue size (kind `issued`, which the freshness policy does not age) is current.
  const activeWithRecent = active.filter(
    (a) =>
      a.amount && (a.amount.kind === 'issued' || daysBetween(a.amount.as_of, datasetDate) <= 365),
  ).length;
  const assetDates = assets.flatMap((a) => (a.amount ? [a.amount.as_of] : [])).sort();
  // A coin's newest figure, of either kind (a coin without any says why in its record).
  const newestOf = (c: StablecoinRecord) =>
    [c.circulating_supply.as_of, c.market_cap.as_of]
      .filter((d): d is string => d !== null)
      .sort()
      .at(-1) ?? null;
  const coinDates = coins
    .map(newestOf)
    .filter((d): d is string => d !== null)
    .sort();
  const coins2026 = coinDates.filter((d) => d >= '2026-01-01').length;
  const withoutFigure = coins.length - coinDates.length;
  const oldCoinsUnexplained = coins.filter((c) =>
    (['circulating_supply', 'market_cap'] as const).some(
      (k) => c[k].as_of !== null && c[k].as_of! < '2025-10-01' && !c[k].stale_reason,
    ),
  ).length;
  const allSources = [...assets.flatMap((a) => a.sources), ...coins.flatMap((c) => c.sources)];

  const median = lowerMedian(assetDates);
  const activeRecentPct = pct(activeWithRecent, active.length);
  const coinsPct = pct(coins2026, coinDates.length);
  const targets = [
    ...coverageTargets({
      assets: assets.length,
      nonEquity,
      evmPct,
      coins: coins.length,
      median,
      activeRecentPct,
      coinsPct,
      oldCoinsUnexplained,
      withoutFigure,
    }),
    ...(honesty ? honestyTargets(honesty) : []),
  ];

  return {
    dataset_date: datasetDate,
    coverage: coverageOf(assets, active, nonEquity, coins),
    identifiers: identifiersOf(assets, coins, ledgerEntries, publicEvm, permissioned),
    ages: {
      assets: {
        oldest: assetDates[0] ?? null,
        median,
        current_pct: activeRecentPct,
      },
      stablecoin_figures: {
        oldest: coinDates[0] ?? null,
        median: lowerMedian(coinDates),
        dated_2026_pct: coinsPct,
        without_figure: withoutFigure,
      },
      figures: figures.slice(0, figureRows),
      figures_total: figures.length,
    },
    sources_by_kind: count(allSources, (s) => s.kind),
    honesty,
    targets,
  };
}

/** What the release holds: records by kind, class, ledger, level; coins by peg and status. */
function coverageOf(
  assets: readonly AssetRecord[],
  active: readonly AssetRecord[],
  nonEquity: number,
  coins: readonly StablecoinRecord[],
): DataReport['coverage'] {
  const deployments = coins.flatMap((c) => c.deployments ?? []);
  return {
    assets: assets.length,
    active_assets: active.length,
    by_kind: count(assets, (a) => a.kind ?? 'asset'),
    institutional_non_equity: nonEquity,
    stablecoins: coins.length,
    by_asset_class: count(assets, (a) => a.tfic.split('.')[0]!),
    by_ledger: count(assets, (a) => [...new Set(a.ledgers.map((l) => l.ledger))]),
    by_validation_level: count(assets, (a) => a.validation.level),
    stablecoins_by_peg: count(coins, (c) => c.peg_currency),
    stablecoins_by_status: count(coins, (c) => c.status.value),
    stablecoins_with_white_paper: coins.filter((c) => c.mica.white_paper).length,
    stablecoin_deployments: {
      with: deployments.filter((d) => d.contract_address).length,
      of: deployments.length,
    },
  };
}

/** How many records carry each identifier (contract addresses per ledger entry). */
function identifiersOf(
  assets: readonly AssetRecord[],
  coins: readonly StablecoinRecord[],
  ledgerEntries: readonly AssetRecord['ledgers'][number][],
  publicEvm: readonly AssetRecord['ledgers'][number][],
  permissioned: number,
): DataReport['identifiers'] {
  return {
    isin: { with: assets.filter((a) => a.identifiers.isin).length, of: assets.length },
    issuer_lei: { with: assets.filter((a) => a.issuer.lei).length, of: assets.length },
    contract_address: {
      with: ledgerEntries.filter((l) => l.contract_address).length,
      of: ledgerEntries.length,
    },
    contract_address_public_evm: {
      with: publicEvm.filter((l) => l.contract_address).length,
      of: publicEvm.length,
    },
    permissioned_ledger_entries: permissioned,
    asset_dti: { with: assets.filter((a) => a.identifiers.dti).length, of: assets.length },
    stablecoin_dti: { with: coins.filter((c) => c.dti).length, of: coins.length },
    stablecoin_issuer_lei: { with: coins.filter((c) => c.issuer.lei).length, of: coins.length },
    stablecoin_isin: { with: coins.filter((c) => c.isin).length, of: coins.length },
  };
}

/** The coverage and freshness targets of a release. */
function coverageTargets(n: {
  assets: number;
  nonEquity: number;
  evmPct: number | null;
  coins: number;
  median: string | null;
  activeRecentPct: number | null;
  coinsPct: number | null;
  oldCoinsUnexplained: number;
  withoutFigure: number;
}): ReportTarget[] {
  const {
    nonEquity,
    evmPct,
    median,
    activeRecentPct,
    coinsPct,
    oldCoinsUnexplained,
    withoutFigure,
  } = n;
  return [
    target('assets', 'registry records (series included)', n.assets, '≥ 300', n.assets >= 300),
    target(
      'institutional_non_equity',
      'institutional records that are not equity or equity trackers (funds, bonds, credit, deposits, commodities, notes)',
      nonEquity,
      '≥ 150',
      nonEquity >= 150,
    ),
    target(
      'contract_address_public_evm',
      'public-EVM ledger entries with a contract address (%)',
      evmPct ?? 0,
      '≥ 70',
      (evmPct ?? 0) >= 70,
    ),
    target('stablecoins', 'stablecoins', n.coins, '≥ 60', n.coins >= 60),
    target(
      'asset_median_date',
      'median asset figure date',
      median ?? 'none',
      '≥ 2026-01-01',
      !!median && median >= '2026-01-01',
    ),
    target(
      'active_assets_recent',
      'active assets with a current figure: dated within 12 months, or a fixed issue size (%)',
      activeRecentPct ?? 0,
      '≥ 90',
      (activeRecentPct ?? 0) >= 90,
    ),
    target(
      'stablecoin_figures_2026',
      'stablecoins whose newest figure is dated 2026 or later (%)',
      coinsPct ?? 0,
      '≥ 80',
      (coinsPct ?? 0) >= 80,
    ),
    target(
      'stablecoin_figures_old',
      'stablecoin figures older than 2025-10-01 without a reason',
      oldCoinsUnexplained,
      '= 0',
      oldCoinsUnexplained === 0,
    ),
    target(
      'stablecoins_with_figure',
      'stablecoins without a dated circulating supply or market cap',
      withoutFigure,
      '= 0',
      withoutFigure === 0,
    ),
  ];
}

/** Issue 34's targets: no guessed value, no classification alone, few near-empty records, known domiciles. */
function honestyTargets(h: HonestyReport): ReportTarget[] {
  const nearEmpty = pct(h.near_empty.records, h.near_empty.of) ?? 0;
  const domicile = pct(h.issuer_domicile.with, h.issuer_domicile.of) ?? 0;
  return [
    target(
      'guessed_values',
      'guessed values (a default given to a fact no source states)',
      h.guessed_values,
      '= 0',
      h.guessed_values === 0,
    ),
    target(
      'classification_without_authorisation',
      '`art` or `emt` classifications without an authorisation',
      h.classification_without_authorisation,
      '= 0',
      h.classification_without_authorisation === 0,
    ),
    target(
      'near_empty',
      'near-empty records: five or more of issuer LEI, issuer domicile, custodian, amount, launch date, ISIN, contract unknown (%)',
      nearEmpty,
      '≤ 40',
      nearEmpty <= 40,
    ),
    target(
      'issuer_domicile',
      'records whose issuer domicile is known (%)',
      domicile,
      '≥ 80',
      domicile >= 80,
    ),
    target(
      'sibling_disagreements',
      'sibling classes that disagree on a fund-level fact',
      h.sibling_disagreements ?? 'not counted',
      '= 0',
      h.sibling_disagreements === 0,
    ),
  ];
}

function target(
  id: string,
  description: string,
  value: number | string,
  goal: string,
  met: boolean,
): ReportTarget {
  return { id, description, value, target: goal, met };
}

/** The report as plain text for the terminal. */
export function formatReport(r: DataReport): string {
  const share = (x: { with: number; of: number }) =>
    `${x.with}/${x.of} (${pct(x.with, x.of) ?? 0} %)`;
  const table = (rows: Record<string, number>) =>
    Object.entries(rows)
      .map(([k, v]) => `  ${k.padEnd(24)} ${v}`)
      .join('\n');
  return [
    `Data report — dataset date ${r.dataset_date}`,
    '',
    `Coverage: ${r.coverage.assets} registry records (${r.coverage.active_assets} active; ${Object.entries(
      r.coverage.by_kind,
    )
      .map(([k, v]) => `${k} ${v}`)
      .join(
        ', ',
      )}), ${r.coverage.institutional_non_equity} not equity or equity trackers, ${r.coverage.stablecoins} stablecoins`,
    'By asset class:',
    table(r.coverage.by_asset_class),
    'By ledger (assets on it):',
    table(r.coverage.by_ledger),
    'By validation level:',
    table(r.coverage.by_validation_level),
    '',
    'Identifiers:',
    `  ISIN                     ${share(r.identifiers.isin)}`,
    `  issuer LEI               ${share(r.identifiers.issuer_lei)}`,
    `  contract address         ${share(r.identifiers.contract_address)} ledger entries`,
    `    on public EVM ledgers  ${share(r.identifiers.contract_address_public_evm)} (permissioned ledger entries counted apart: ${r.identifiers.permissioned_ledger_entries})`,
    `  asset DTI                ${share(r.identifiers.asset_dti)}`,
    `  stablecoin DTI           ${share(r.identifiers.stablecoin_dti)}`,
    `  stablecoin issuer LEI    ${share(r.identifiers.stablecoin_issuer_lei)}`,
    `  stablecoin ISIN          ${share(r.identifiers.stablecoin_isin)}`,
    `  stablecoin contracts     ${share(r.coverage.stablecoin_deployments)} deployments`,
    '',
    `Asset figures: oldest ${r.ages.assets.oldest}, median ${r.ages.assets.median}, active assets with a current figure ${r.ages.assets.current_pct} %`,
    `Stablecoins by peg: ${Object.entries(r.coverage.stablecoins_by_peg)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}; by status: ${Object.entries(r.coverage.stablecoins_by_status)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}; with an ESMA white paper: ${r.coverage.stablecoins_with_white_paper}`,
    `Stablecoin figures (each coin's newest): oldest ${r.ages.stablecoin_figures.oldest}, median ${r.ages.stablecoin_figures.median}, dated 2026 or later ${r.ages.stablecoin_figures.dated_2026_pct} %, coins without any figure ${r.ages.stablecoin_figures.without_figure}`,
    'Sources by kind:',
    table(r.sources_by_kind),
    ...(r.honesty ? ['', ...honestyLines(r.honesty)] : []),
    '',
    r.ages.figures.length < r.ages.figures_total
      ? `The oldest ${r.ages.figures.length} of ${r.ages.figures_total} figures:`
      : 'Every figure (oldest first):',
    ...r.ages.figures.map(
      (f) =>
        `  ${f.record.padEnd(26)} ${f.figure.padEnd(19)} ${f.as_of} ${String(f.age_days).padStart(5)} d  ${f.source_kind}${f.ended ? '  (ended)' : ''}${f.stale_reason ? `  stale: ${f.stale_reason}` : ''}`,
    ),
    '',
    'Targets:',
    ...r.targets.map(
      (t) => `  ${t.met ? 'met    ' : 'MISSED '} ${t.description}: ${t.value} (target ${t.target})`,
    ),
  ].join('\n');
}

/** The honesty section as text: guesses, unknowns by factor, near-empty records, domiciles. */
function honestyLines(h: HonestyReport): string[] {
  const share = (n: number, of: number) => `${n}/${of} (${pct(n, of) ?? 0} %)`;
  return [
    `Guessed values: ${h.guessed_values} factors in ${h.guessed_records} records that give a default to facts no source states`,
    `Unknown factors (records where each is unknown; ${h.records_with_unknown} records have one or more):`,
    ...(Object.keys(h.unknown_factors).length
      ? Object.entries(h.unknown_factors).map(([k, v]) => `  ${k.padEnd(40)} ${v}`)
      : ['  none']),
    `art or emt classifications without an authorisation: ${h.classification_without_authorisation}`,
    `Near-empty records (five or more of the seven main fields unknown): ${share(h.near_empty.records, h.near_empty.of)}`,
    `Issuer domicile known: ${share(h.issuer_domicile.with, h.issuer_domicile.of)}`,
    `Sibling classes disagreeing on a fund-level fact: ${h.sibling_disagreements ?? 'not counted'}`,
  ];
}

/** Each ledger code's type and virtual machine, from the ledger table. */
export function ledgerKinds(codes: Pick<CodeTables, 'ledgers'>): LedgerKinds {
  return new Map(codes.ledgers.ledgers.map((l) => [l.code, { type: l.type, vm: l.vm }]));
}
