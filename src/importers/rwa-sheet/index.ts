// npm run data:import -- rwa-sheet --file ../shared/data/defillama-rwa/rwa-sheet-12jan.csv [--write]
// DefiLlama's RWA asset sheet → data/assets/: candidates and identifier leads. A fund, bond,
// credit or commodity product the registry lacks becomes a record (unverified, every unknown fact
// null with its reason, class facts by named rule); an ISIN whose ISO 6166 check digit holds and
// an issuer LEI in the registry text whose ISO 17442 check holds go to the record (new, or
// existing where it has none), with their origin. The sheet's contract addresses are known to be
// wrong in places: they only match rows to records, and are never written. Rows the registry does
// not hold (stocks, stablecoins, platforms, carbon credits) are counted. Re-running writes nothing.
import { isValidIsin, isValidLei } from '../../domain/identifiers.ts';
import type { FactOrigin, Source } from '../../domain/common.ts';
import type { AssetRecord } from '../../domain/asset.ts';
import { putSourceIfAbsent } from '../shared/record-sources.ts';
import { newAssetRecord } from '../defillama-adapters/records.ts';
import { settleWorstCases } from '../defillama-adapters/settle-unknowns.ts';
import type { FileChange } from '../shared/changes.ts';
import { readDataDocs, renderDoc, valueAt, type DataDoc } from '../shared/data-docs.ts';
import type { ImportContext, ImportResult, Importer } from '../shared/importer.ts';
import { readLedgers, type Ledgers } from '../shared/ledgers.ts';
import { allocator, renderRecord } from '../shared/new-records.ts';
import { provenanceOf } from '../shared/provenance.ts';
import { tficNames } from '../shared/yaml-table.ts';
import { isMap, parseDocument, type YAMLMap } from 'yaml';
import { applyFlags, applyRegistry, clearRegistry, mergeFlags } from './facts.ts';
import { nodeFor } from '../shared/data-docs.ts';
import { readSheetRows, SHEET, type SheetOrigin, type SheetRow } from './rows.ts';

export const SHEET_SOURCE = 'defillama-rwa-sheet';
const YEAR = '2026';

/** The sheet's asset class → TFIC, for the rows the registry holds (first match wins). */
const TFIC_OF: [RegExp, string][] = [
  [/Money market fund/i, 'FUND.MMFD'],
  [/T-bills/i, 'FUND.TBIL'],
  [/Sovereign bond fund|Credit \/ corporate bond fund/i, 'FUND.BOND'],
  [/Real estate credit/i, 'CRED.MORT'],
  // A reinsurance pool's return comes from premiums, not borrowers: a participation, not a loan pool.
  [/Reinsurance/i, 'FUND.PEQT'],
  [/Private credit|structured credit|Yield bearing RWA pool/i, 'CRED.LOAN'],
  [/Mixed RWA fund|Crypto index fund|Crypto hedge fund/i, 'FUND.MULT'],
  [/gold|Silver|Palladium|Platinum/i, 'CMDY.GOLD'],
  [/Uranium|Other commodity|Commodity basket/i, 'CMDY.OTHR'],
  [/Carbon/i, 'CMDY.CRBN'],
  [/Single asset RWA wrapper/i, 'FUND.TBIL'],
];
/** Rows the asset registry does not hold, whatever their asset class says. */
const NOT_HELD = /Stocks|Stablecoin|Governance|Non-RWA/i;

const LEI = /\b[0-9A-Z]{18}[0-9]{2}\b/g;
const leiIn = (text: string | null) =>
  [...new Set(text?.match(LEI) ?? [])].filter((l) => /[A-Z]/.test(l) && isValidLei(l));

function sourceOf(ctx: ImportContext, rows: number, sheet: SheetOrigin): Source {
  return {
    id: SHEET_SOURCE,
    kind: 'data_aggregator',
    title: `DefiLlama RWA asset sheet (${sheet.repository} ${sheet.path}, commit ${sheet.commit.slice(0, 12)}): identifiers`,
    publisher: 'DefiLlama',
    url: 'https://defillama.com/rwa',
    accessed: ctx.today,
    published: null,
    provenance: provenanceOf(
      ctx.input!,
      `https://github.com/${sheet.repository}/blob/${sheet.commit}/${sheet.path}`,
      rows,
      ctx.today,
    ),
  };
}

const lower = (s: unknown) => String(s ?? '').toLowerCase();
const folded = (s: string) =>
  s
    .toLowerCase()
    .replace(/\blimited\b/g, 'ltd')
    .replace(/[^a-z0-9]/g, '');

function matchRecord(row: SheetRow, docs: readonly DataDoc[]): DataDoc | undefined {
  const wanted = new Set(row.contracts.map((c) => c.address.toLowerCase()));
  const byContract = docs.find((d) =>
    ((valueAt(d.doc, ['ledgers']) as { contract_address: unknown }[] | undefined) ?? []).some(
      (l) => l.contract_address && wanted.has(lower(l.contract_address)),
    ),
  );
  if (byContract) return byContract;
  if (!row.ticker) return undefined;
  const byTicker = docs.filter((d) => lower(d.doc.get('short_name')) === row.ticker!.toLowerCase());
  return byTicker.length === 1 ? byTicker[0] : undefined;
}

/** An identifier lead for a record that has none; an existing different value is reported. */
function lead(
  d: DataDoc,
  map: 'identifiers' | 'issuer',
  key: 'isin' | 'lei',
  value: string,
  origin: FactOrigin,
  say: (s: string) => void,
): boolean {
  const node = d.doc.get(map, true);
  if (!isMap(node)) return false;
  const current = (node as YAMLMap).get(key) as string | null | undefined;
  if (current === value) return false;
  if (current != null) {
    say(`${d.path}: ${key} is ${current}; the sheet says ${value} (kept)`);
    return false;
  }
  node.set(key, value);
  node.set(`${key}_origin`, nodeFor(d.doc, origin));
  node.set(key === 'isin' ? 'null_reason' : 'lei_null_reason', null);
  say(`${d.path}: ${key} set to ${value}`);
  return true;
}

/** A new, unverified record from a sheet row: no contract address (the sheet alone never gives one). */
function sheetRecord(
  row: SheetRow,
  ids: { tfin: string; tfic: string; tficName: string },
  ordered: string[],
  ledgers: Ledgers,
  source: Source,
  isin: string | null,
  leis: string[],
  origin: FactOrigin,
): AssetRecord {
  const { tfin, tfic } = ids;
  const ledgerNames = ordered.map((c) => ledgers.entry(c)?.name ?? c);
  return newAssetRecord({
    tfin,
    name: row.name,
    shortName: row.ticker,
    tfic,
    tficName: ids.tficName,
    issuerName: row.issuer ?? row.name,
    ledgers: ordered.map((ledger) => ({
      ledger,
      token_standard: null,
      contract_address: null,
      contract_address_null_reason:
        'No issuer document, adapter or ledger read confirms the token address on this ledger; the aggregator sheet alone is not used for addresses.',
    })),
    description: `${row.name}: a ${ids.tficName.toLowerCase()} token${row.issuer ? ` of ${row.issuer}` : ''} on ${ledgerNames.join(', ')}. Its terms, custody and service providers are not stated in the sources of this record.`,
    source,
    asOf: '2026-01-12',
    basis:
      "The product, its issuer and ledgers come from DefiLlama's RWA sheet alone: an aggregator's compilation, not an issuer statement or a ledger read, so the record is unverified and carries no contract address.",
    isin: isin ? { value: isin, origin } : null,
    lei: leis.length === 1 ? { value: leis[0]!, origin } : null,
  });
}

/** A programme's series rows: the programme takes each flag and the registry text all of them state alike. */
function applySeriesRows(
  programme: DataDoc,
  tfin: string,
  rowsOf: SheetRow[],
  originOf: (row: SheetRow) => FactOrigin,
  publicOnly: boolean,
  say: (s: string) => void,
): boolean {
  const first = rowsOf.reduce((a, b) => (a.row <= b.row ? a : b));
  const alike = <T>(pick: (r: SheetRow) => T) =>
    rowsOf.every((r) => JSON.stringify(pick(r)) === JSON.stringify(pick(first)));
  const where = `${rowsOf.length} rows of ${tfin}'s series`;
  // Each flag all rows agree on is the programme's; a flag they differ on is null (and counted).
  const { flags, listed } = mergeFlags(rowsOf.map((r) => r.flags));
  let changed = applyFlags(programme.doc, flags, originOf(first), publicOnly, {
    listed,
    rows: rowsOf.length,
  });
  if (alike((r) => r.registry_info))
    changed =
      applyRegistry(programme.doc, first.registry_info, originOf(first), say, where) || changed;
  return changed;
}

/**
 * What one import of the sheet works with: the records and tables it reads, where each row's
 * facts come from, how a row's facts are applied to a record, and what it reports.
 */
function sheetRun(ctx: ImportContext, sheet: SheetOrigin, rows: readonly SheetRow[]) {
  const originOf = (row: SheetRow): FactOrigin => ({
    source: SHEET_SOURCE,
    repository: sheet.repository,
    path: sheet.path,
    line: row.row,
    commit: sheet.commit,
  });
  const ledgers = readLedgers(ctx.root);
  const names = tficNames(ctx.root);
  const docs = [
    ...readDataDocs(ctx.root, 'data/assets'),
    ...readDataDocs(ctx.root, 'data/assets/series'),
  ];
  const source = sourceOf(ctx, rows.length, sheet);
  const nextTfin = allocator(docs.map((d) => String(d.doc.get('tfin'))));
  const report: string[] = [`${ctx.input!.name}: ${rows.length} rows`];
  const say = (s: string) => report.push(s);
  const publicLedgers = (codes: string[]) =>
    codes.length > 0 && codes.every((c) => ledgers.entry(c)?.type === 'public_permissionless');
  const ledgerCodes = (d: DataDoc) =>
    ((valueAt(d.doc, ['ledgers']) as { ledger: string }[] | undefined) ?? []).map((l) => l.ledger);
  // A share class states no issuer facts of its own: its fund (the parent) states them once.
  const inheritsIssuer = (d: DataDoc) =>
    valueAt(d.doc, ['parent', 'relation']) === 'share_class_of';
  /** The row's access facts and issuer facts on a record (not a series: its programme states them). */
  const applyRow = (d: DataDoc, row: SheetRow, where: string) => {
    let changed = applyFlags(d.doc, row.flags, originOf(row), publicLedgers(ledgerCodes(d)));
    if (!inheritsIssuer(d))
      changed = applyRegistry(d.doc, row.registry_info, originOf(row), say, where) || changed;
    else
      changed =
        clearRegistry(d.doc, SHEET_SOURCE, String(valueAt(d.doc, ['parent', 'tfin']))) || changed;
    return changed;
  };
  return {
    originOf,
    ledgers,
    names,
    docs,
    source,
    nextTfin,
    report,
    say,
    publicLedgers,
    ledgerCodes,
    inheritsIssuer,
    applyRow,
    counts: { notHeld: 0, matched: 0, created: 0, noLedger: 0 },
  };
}
type SheetRun = ReturnType<typeof sheetRun>;

/** One row's place in the report, and the identifiers it carries that pass their checks. */
interface RowLeads {
  where: string;
  isin: string | null;
  leis: string[];
}

/** Issuers of programmes: their tokens are series, which only an address source can place. */
function programmesByIssuer(docs: readonly DataDoc[]): Map<string, string[]> {
  const programmes = new Map<string, string[]>();
  for (const d of docs.filter((x) => x.doc.get('kind') === 'programme')) {
    const issuer = folded(String(valueAt(d.doc, ['issuer', 'name'])));
    programmes.set(issuer, [...(programmes.get(issuer) ?? []), String(d.doc.get('tfin'))]);
  }
  return programmes;
}

/**
 * A row that matches a record: its ISIN and LEI leads and its facts go to the record; a series'
 * rows are kept for its programme (`seriesRows`). True when the record changed.
 */
function applyMatched(
  r: SheetRun,
  matched: DataDoc,
  row: SheetRow,
  { where, isin, leis }: RowLeads,
  seriesRows: Map<string, SheetRow[]>,
): boolean {
  let changed = false;
  if (isin) changed = lead(matched, 'identifiers', 'isin', isin, r.originOf(row), r.say) || changed;
  const isSeries = matched.path.includes('/series/');
  if (leis.length === 1 && !isSeries && !r.inheritsIssuer(matched))
    changed = lead(matched, 'issuer', 'lei', leis[0]!, r.originOf(row), r.say) || changed;
  if (isSeries) {
    const programme = String(matched.doc.get('programme'));
    seriesRows.set(programme, [...(seriesRows.get(programme) ?? []), row]);
  } else changed = r.applyRow(matched, row, where) || changed;
  return changed;
}

/**
 * A row that matches no record: a new record, unless the registry does not hold it, or it has no
 * name or no ledger with a code (each counted, and said where it is not plain from the class).
 */
function createFromRow(
  r: SheetRun,
  row: SheetRow,
  { where, isin, leis }: RowLeads,
  programmes: ReadonlyMap<string, string[]>,
): FileChange | null {
  const { counts, ledgers, say } = r;
  const programme = programmes.get(folded(row.issuer ?? ''));
  if (programme) {
    say(
      `${where}: its issuer's tokens are series of ${programme.join(' or ')}, which the sheet cannot place without an adapter address; not imported`,
    );
    counts.notHeld++;
    return null;
  }
  const tfic = TFIC_OF.find(([p]) => p.test(row.asset_class))?.[1];
  if (row.type !== 'Asset' || NOT_HELD.test(`${row.category} ${row.asset_class}`) || !tfic) {
    counts.notHeld++;
    return null;
  }
  if (!row.name) {
    say(`${where}: has no product name; not imported`);
    counts.notHeld++;
    return null;
  }
  const codes = [
    ...new Set(
      row.chains.map((c) => ledgers.forChain('defillama', c)).filter((c): c is string => !!c),
    ),
  ];
  const unknown = row.chains.filter((c) => !ledgers.forChain('defillama', c));
  if (unknown.length)
    say(`${where}: chain(s) ${unknown.join(', ')} have no ledger code; not listed`);
  if (!codes.length) {
    counts.noLedger++;
    say(`${where}: no chain with a ledger code; not imported`);
    return null;
  }
  const first = codes.includes('ETH') ? 'ETH' : codes[0]!;
  const ordered = [first, ...codes.filter((c) => c !== first)];
  const tfin = r.nextTfin(tfic.slice(0, 4), first, YEAR);
  const record = sheetRecord(
    row,
    { tfin, tfic, tficName: r.names.get(tfic) ?? tfic },
    ordered,
    ledgers,
    r.source,
    isin,
    leis,
    r.originOf(row),
  );
  const text = renderRecord(record);
  const created: DataDoc = { path: `data/assets/${tfin}.yaml`, text, doc: parseDocument(text) };
  r.applyRow(created, row, where);
  say(`data/assets/${tfin}.yaml: new (${where}, ${tfic})`);
  counts.created++;
  return { path: created.path, after: renderDoc(created) };
}

async function run(ctx: ImportContext, sheet: SheetOrigin): Promise<ImportResult> {
  const rows = readSheetRows(ctx.input!, sheet);
  const r = sheetRun(ctx, sheet, rows);
  const { docs, say, counts } = r;
  const programmes = programmesByIssuer(docs);
  // Rows of a programme's series: the programme takes what all of them state alike.
  const seriesRows = new Map<string, SheetRow[]>();
  const changes: FileChange[] = [];
  const touched = new Set<DataDoc>();
  // Records written before a factor could be unknown: their worst-case values become unknown.
  for (const d of docs)
    if (settleWorstCases(d.doc)) {
      touched.add(d);
      say(`${d.path}: unstated risk factors are unknown, with their reasons`);
    }
  for (const row of rows) {
    const where = `row ${row.row} (RWA ID ${row.id}, ${row.ticker ?? row.name})`;
    const isin = row.isin && isValidIsin(row.isin) ? row.isin : null;
    if (row.isin && !isin && /^[A-Z]{2}[A-Z0-9]{9}[0-9]$/.test(row.isin))
      say(`${where}: ISIN ${row.isin} fails its ISO 6166 check digit; not used`);
    const leads = { where, isin, leis: leiIn(row.registry_info) };
    const matched = matchRecord(row, docs);
    if (matched) {
      counts.matched++;
      if (applyMatched(r, matched, row, leads, seriesRows)) {
        putSourceIfAbsent(matched.doc, r.source);
        touched.add(matched);
      }
      continue;
    }
    const created = createFromRow(r, row, leads, programmes);
    if (created) changes.push(created);
  }
  for (const [tfin, rowsOf] of seriesRows) {
    const programme = docs.find((d) => d.doc.get('tfin') === tfin);
    if (!programme) continue;
    const publicOnly = r.publicLedgers(r.ledgerCodes(programme));
    if (applySeriesRows(programme, tfin, rowsOf, r.originOf, publicOnly, say)) {
      putSourceIfAbsent(programme.doc, r.source);
      touched.add(programme);
    }
  }
  for (const d of touched) {
    const after = renderDoc(d);
    if (after !== d.text) changes.push({ path: d.path, after });
  }
  say(
    `${rows.length} rows: ${counts.matched} match a record, ${counts.created} new records, ${counts.notHeld} not held by the asset registry, ${counts.noLedger} without a known ledger`,
  );
  return { changes, report: r.report };
}

/** The importer for a sheet captured at a known commit (tests give their fixture's). */
export const sheetImporter = (sheet: SheetOrigin = SHEET): Importer => ({
  name: 'rwa-sheet',
  summary: "candidates and identifier leads from DefiLlama's RWA asset sheet (12Jan.csv)",
  needsInput: true,
  run: (ctx) => run(ctx, sheet),
});

export const rwaSheetImporter = sheetImporter();
