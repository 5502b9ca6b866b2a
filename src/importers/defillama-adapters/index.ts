// npm run data:import -- defillama-adapters --file ../shared/data/defillama-rwa/adapter-contracts.csv [--write]
// DefiLlama's RWA adapter file → data/assets/. Each product (issuer + ticker) is an existing
// record, a new record, or a series of a programme (data/assets/universe/defillama-adapters.yaml
// says which): existing records get the addresses they lack (an editor's differing address is
// kept and reported); new ones are written whole, unverified, with every unknown fact null and its
// reason. Unknown chains and unlabelled rows are reported. Re-running on the same file writes nothing.
import type { Source } from '../../domain/common.ts';
import type { FileChange } from '../shared/changes.ts';
import { readDataDocs, renderDoc, valueAt, type DataDoc } from '../shared/data-docs.ts';
import { ImportError } from '../shared/errors.ts';
import type { ImportContext, ImportResult, Importer } from '../shared/importer.ts';
import { readLedgers } from '../shared/ledgers.ts';
import { provenanceOf } from '../shared/provenance.ts';
import { tficNames } from '../shared/yaml-table.ts';
import { allocator, renderRecord as render } from '../shared/new-records.ts';
import { attachLedgers } from './attach.ts';
import { TFIC_OF_ADAPTER_CLASS } from './classes.ts';
import { ADAPTER_SOURCE, groupProducts, type Product } from './products.ts';
import { newAssetRecord, productRecord, seriesFor } from './records.ts';
import { readAdapterRows } from './rows.ts';
import { readAdapterUniverse, UNIVERSE_FILE, type ProgrammeEntry } from './universe.ts';
import { rewordAdapterBasis, settleWorstCases } from './settle-unknowns.ts';

const ASSETS = 'data/assets';
const SERIES = 'data/assets/series';

function sourceOf(ctx: ImportContext, rows: ReturnType<typeof readAdapterRows>): Source {
  const commit = rows[0]!.origin.commit;
  const published = rows
    .map((r) => r.commit_date)
    .sort()
    .at(-1)!;
  return {
    id: ADAPTER_SOURCE,
    kind: 'data_aggregator',
    title: `DefiLlama RWA adapters (DefiLlama/DefiLlama-Adapters, commit ${commit.slice(0, 12)}): token addresses per chain`,
    publisher: 'DefiLlama',
    url: 'https://defillama.com/rwa',
    accessed: ctx.today,
    published,
    provenance: provenanceOf(
      ctx.input!,
      `https://github.com/${rows[0]!.origin.repository}/tree/${commit}/projects`,
      rows.length,
      ctx.today,
    ),
  };
}

const addressesOf = (d: DataDoc) =>
  ((valueAt(d.doc, ['ledgers']) as { ledger: string; contract_address: string | null }[]) ?? [])
    .filter((l) => l.contract_address)
    .map((l) => `${l.ledger}:${l.contract_address!.toLowerCase()}`);

function findByContract(docs: readonly DataDoc[], product: Product): DataDoc | undefined {
  const wanted = new Set(
    product.ledgers.map((l) => `${l.ledger}:${l.contract_address.toLowerCase()}`),
  );
  return docs.find((d) => addressesOf(d).some((a) => wanted.has(a)));
}

/** What one run reads once and writes into, shared by the per-product and per-programme steps. */
interface Pass {
  universe: ReturnType<typeof readAdapterUniverse>;
  names: ReturnType<typeof tficNames>;
  assets: DataDoc[];
  series: DataDoc[];
  source: Source;
  year: string;
  nextTfin: ReturnType<typeof allocator>;
  ledgerName: (code: string) => string;
  report: string[];
  changes: FileChange[];
  touched: Set<DataDoc>;
  counts: { attached: number; created: number; series: number; skipped: number };
}

// The ledger a TFIN names: the preferred one (a series takes its programme's) if the product is
// on it, else Ethereum, else the product's first; it is listed first.
const firstLedger = (p: Product, preferred = 'ETH') =>
  [preferred, 'ETH'].find((code) => p.ledgers.some((l) => l.ledger === code)) ??
  p.ledgers[0]!.ledger;

function ordered(p: Product, preferred?: string): Product {
  const first = firstLedger(p, preferred);
  return {
    ...p,
    ledgers: [
      ...p.ledgers.filter((l) => l.ledger === first),
      ...p.ledgers.filter((l) => l.ledger !== first),
    ],
  };
}

function attach(pass: Pass, doc: DataDoc, product: Product) {
  for (const s of attachLedgers(doc.doc, product.ledgers, pass.source))
    pass.report.push(`${doc.path}: ${s}`);
  pass.touched.add(doc);
  pass.counts.attached++;
}

/**
 * One product outside a programme: skipped (not an asset, no ledger code, no TFIC), attached to
 * its existing record, or a new record. A programme's product is collected for `importProgramme`.
 */
function importProduct(
  pass: Pass,
  raw: Product,
  programmeSeries: Map<ProgrammeEntry, Product[]>,
): void {
  const { universe, assets, report, counts } = pass;
  const product = raw.ledgers.length ? ordered(raw) : raw;
  const label = `${product.issuer} ${product.key}`;
  const excluded = universe.not_assets.find(
    (n) => n.issuer === product.issuer && n.tickers.includes(product.key),
  );
  if (excluded) {
    report.push(`${label}: not an asset record (${excluded.reason})`);
    counts.skipped++;
    return;
  }
  if (!product.ledgers.length) {
    report.push(`${label}: no row on a chain with a ledger code; not imported`);
    counts.skipped++;
    return;
  }
  const programme = universe.programmes.find((p) => p.issuer === product.issuer);
  if (programme) {
    programmeSeries.set(programme, [...(programmeSeries.get(programme) ?? []), product]);
    return;
  }
  const named = universe.records.find(
    (r) => r.issuer === product.issuer && r.tickers.includes(product.key),
  );
  if (named?.tfin) {
    const doc = assets.find((d) => d.doc.get('tfin') === named.tfin);
    if (!doc)
      report.push(
        `${UNIVERSE_FILE}: ${label} is ${named.tfin}, which is not in ${ASSETS}/; skipped`,
      );
    else attach(pass, doc, product);
    return;
  }
  const existing =
    findByContract(assets, product) ??
    assets.find(
      (d) =>
        product.ticker !== null &&
        d.doc.get('short_name') === product.ticker &&
        valueAt(d.doc, ['issuer', 'name']) === product.issuer,
    );
  if (existing) {
    attach(pass, existing, product);
    return;
  }
  const tfic =
    universe.classes.find((c) => c.issuer === product.issuer && c.ticker === product.key)?.tfic ??
    TFIC_OF_ADAPTER_CLASS[product.asset_class];
  if (!tfic || !pass.names.has(tfic)) {
    report.push(
      `${label}: adapter asset class "${product.asset_class}" has no TFIC; add it to classes in ${UNIVERSE_FILE}`,
    );
    counts.skipped++;
    return;
  }
  const tfin = pass.nextTfin(tfic.slice(0, 4), firstLedger(product), pass.year);
  const record = productRecord(
    product,
    tfin,
    tfic,
    pass.names.get(tfic)!,
    product.ledgers.map((l) => pass.ledgerName(l.ledger)),
    pass.source,
  );
  pass.changes.push({ path: `${ASSETS}/${tfin}.yaml`, after: render(record) });
  report.push(`${ASSETS}/${tfin}.yaml: new (${label}, ${tfic})`);
  counts.created++;
}

/**
 * The programme's own record when it has none yet, from the universe's entry (false when the
 * entry lacks what a record needs: its series are then skipped).
 */
function ensureProgrammeRecord(pass: Pass, programme: ProgrammeEntry, members: Product[]): boolean {
  if (pass.assets.some((d) => d.doc.get('tfin') === programme.tfin)) return true;
  if (!programme.name || !programme.issuer_name || !programme.tfic) {
    pass.report.push(
      `${UNIVERSE_FILE}: programme ${programme.tfin} is not in ${ASSETS}/ and has no name, issuer_name and tfic to create it; its series are skipped`,
    );
    return false;
  }
  const ledgerCodes = [...new Set(members.flatMap((m) => m.ledgers.map((l) => l.ledger)))];
  const first = programme.tfin.split('-')[2]!;
  ledgerCodes.sort((a, b) => (a === first ? -1 : b === first ? 1 : 0));
  const record = newAssetRecord({
    tfin: programme.tfin,
    kind: 'programme',
    name: programme.name,
    shortName: null,
    tfic: programme.tfic,
    tficName: pass.names.get(programme.tfic) ?? programme.tfic,
    issuerName: programme.issuer_name,
    ledgers: ledgerCodes.map((ledger) => ({
      ledger,
      token_standard: null,
      contract_address: null,
      contract_address_null_reason:
        'Each series of the programme has its own token on this ledger (see its series records).',
    })),
    description: `${programme.name}: the programme under which ${programme.issuer_name} issues one token per underlying; each token is a series record of its own (programme=${programme.tfin}). Its terms, custody and service providers are not stated in the sources of this record.`,
    source: pass.source,
    asOf: pass.source.published!,
  });
  pass.changes.push({ path: `${ASSETS}/${programme.tfin}.yaml`, after: render(record) });
  pass.report.push(`${ASSETS}/${programme.tfin}.yaml: new programme (${programme.issuer})`);
  pass.counts.created++;
  return true;
}

/** A programme's products: each attached to its series record, or a new series. */
function importProgramme(pass: Pass, programme: ProgrammeEntry, members: Product[]): void {
  const own = pass.series.filter((d) => d.doc.get('programme') === programme.tfin);
  if (!ensureProgrammeRecord(pass, programme, members)) return;
  const programmeLedger = programme.tfin.split('-')[2]!;
  for (const member of members) {
    const product = ordered(member, programmeLedger);
    const existing =
      findByContract(own, product) ??
      own.find((d) => product.ticker !== null && d.doc.get('short_name') === product.ticker);
    if (existing) {
      attach(pass, existing, product);
      continue;
    }
    const underlyingName = programme.underlying_from
      ? (new RegExp(programme.underlying_from).exec(product.name ?? '')?.[1] ?? null)
      : null;
    const underlyingTicker =
      programme.underlying_ticker_from && product.ticker
        ? (new RegExp(programme.underlying_ticker_from).exec(product.ticker)?.[1] ?? null)
        : null;
    const name = programme.series_name
      .replace('{ticker}', product.ticker ?? product.key)
      .replace('{underlying}', underlyingName ?? product.key);
    const tfin = pass.nextTfin(
      programme.tfin.slice(5, 9),
      firstLedger(product, programmeLedger),
      pass.year,
    );
    const record = seriesFor(
      product,
      tfin,
      programme.tfin,
      name,
      { name: underlyingName, ticker: underlyingTicker, isin: null },
      pass.source,
    );
    pass.changes.push({ path: `${SERIES}/${tfin}.yaml`, after: render(record) });
    pass.counts.series++;
  }
}

async function run(ctx: ImportContext): Promise<ImportResult> {
  const rows = readAdapterRows(ctx.input!);
  if (!rows.length)
    throw new ImportError(
      { input: ctx.input!.name, row: 2 },
      'has no rows',
      'one row per product, chain and address',
    );
  const universe = readAdapterUniverse(ctx.root);
  const ledgers = readLedgers(ctx.root);
  const assets = readDataDocs(ctx.root, ASSETS);
  const series = readDataDocs(ctx.root, SERIES);
  const source = sourceOf(ctx, rows);
  const report: string[] = [`${ctx.input!.name}: ${rows.length} rows`];
  const products = groupProducts(rows, universe, ledgers, report);
  const pass: Pass = {
    universe,
    names: tficNames(ctx.root),
    assets,
    series,
    source,
    year: source.published!.slice(0, 4),
    // Programme TFINs the universe names are taken even before their records exist.
    nextTfin: allocator([
      ...[...assets, ...series].map((d) => String(d.doc.get('tfin'))),
      ...universe.programmes.map((p) => p.tfin),
    ]),
    ledgerName: (code) => ledgers.entry(code)?.name ?? code,
    report,
    changes: [],
    touched: new Set(),
    counts: { attached: 0, created: 0, series: 0, skipped: 0 },
  };
  const { changes, touched, counts } = pass;
  // Records written before a factor could be unknown: their worst-case values become unknown.
  for (const doc of assets)
    if (settleWorstCases(doc.doc)) {
      touched.add(doc);
      report.push(`${doc.path}: unstated risk factors are unknown, with their reasons`);
    }
  for (const doc of [...assets, ...series]) if (rewordAdapterBasis(doc.doc)) touched.add(doc);

  const programmeSeries = new Map<ProgrammeEntry, Product[]>();
  for (const raw of products) importProduct(pass, raw, programmeSeries);
  for (const [programme, members] of programmeSeries) importProgramme(pass, programme, members);
  for (const doc of touched) {
    const after = renderDoc(doc);
    if (after !== doc.text) changes.push({ path: doc.path, after });
  }
  report.push(
    `${products.length} products: ${counts.attached} attached to existing records, ${counts.created} new records, ${counts.series} new series, ${counts.skipped} not imported`,
  );
  return { changes, report };
}

export const defillamaAdaptersImporter: Importer = {
  name: 'defillama-adapters',
  summary: "token contracts of RWA products from DefiLlama's adapter file (adapter-contracts.csv)",
  needsInput: true,
  run,
};
