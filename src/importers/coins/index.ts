// npm run data:import -- coins --file ../shared/data/defillama-stablecoins/coins.csv [--write]
// The stablecoin universe: DefiLlama's coin list (coins.csv, with contracts.csv beside it) and
// ESMA's EMT white-paper register (data/mica/register/emt.yaml) → data/stablecoins/<id>.yaml.
// Covered: every EUR-pegged coin of the list (a coin that is not live keeps its status), the USD
// coins and white papers named in data/codes/stablecoin-universe.yaml, and every existing record.
// New coins are written whole; existing records get the sources' facts without losing an editor's
// value (reported instead). No record is ever removed. Re-running on the same input writes nothing.
import type { Source } from '../../domain/common.ts';
import type { FileChange } from '../shared/changes.ts';
import { readDataDocs, renderDoc, nodeFor, type DataDoc } from '../shared/data-docs.ts';
import type { ImportContext, ImportResult, Importer } from '../shared/importer.ts';
import { provenanceOf } from '../shared/provenance.ts';
import { parseDocument } from 'yaml';
import { readDefiLlamaList, type DefiLlamaList, type ListedCoin } from './defillama-files.ts';
import {
  CONTRACTS_SOURCE,
  LIST_SOURCE,
  REGISTER_SOURCE,
  contractsOf,
  deploymentsOf,
  paperFacts,
  statusOf,
  type Selected,
} from './facts.ts';
import { readLedgerLookup, type LedgerLookup } from './ledgers.ts';
import { newRecord } from './new-record.ts';
import { updateRecord, type CoinFacts } from './record.ts';
import { findPaper, readRegister, type EmtFile } from './register.ts';
import { defillamaSlug } from '../shared/stablecoin-sources.ts';
import {
  paperMatches,
  readUniverse,
  type StablecoinUniverse,
} from '../shared/stablecoin-universe.ts';

const BACKING: Record<ListedCoin['mechanism'], string> = {
  'fiat-backed': 'fiat_reserves',
  'crypto-backed': 'crypto_backed',
  algorithmic: 'algorithmic',
};

// "USD₮" and "USDT" are one ticker; case differs between publishers (EURe, EURE).
const ticker = (symbol: string) => symbol.replace(/₮/g, 'T').toUpperCase();
const kebab = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * The id of the record a listed coin is: the one naming its DefiLlama id, else the one record of
 * its ticker and peg that names none, else `fallback`.
 */
function recordOf(
  records: readonly DataDoc[],
  listed: ListedCoin | null,
  fallback: string,
): string {
  const byAggregator = records.find(
    (r) => listed && String(r.doc.getIn(['aggregator_ids', 'defillama'])) === listed.id,
  );
  if (byAggregator) return String(byAggregator.doc.get('id'));
  const bySymbol = listed
    ? records.filter(
        (r) =>
          ticker(String(r.doc.get('symbol'))) === ticker(listed.symbol) &&
          String(r.doc.get('peg_currency')) === listed.peg &&
          r.doc.getIn(['aggregator_ids', 'defillama']) == null,
      )
    : [];
  return bySymbol.length === 1 ? String(bySymbol[0]!.doc.get('id')) : fallback;
}

/** Reports the white papers of ESMA's register that the universe maps to no coin and does not explain. */
function reportUnmappedPapers(
  register: EmtFile,
  universe: StablecoinUniverse,
  report: string[],
): void {
  for (const issuer of register.issuers)
    for (const paper of issuer.tokens) {
      const mapped = universe.white_papers.some(
        (m) => m.lei === issuer.lei && paperMatches(m, paper.url, paper.comment),
      );
      const explained = universe.not_named.some(
        (n) => n.lei === issuer.lei && (n.url === undefined || n.url === paper.url),
      );
      if (!mapped && !explained && paper.url !== 'EMT_NO_WP')
        report.push(
          `ESMA white paper not mapped to a coin: ${issuer.name} (${issuer.lei}) ${paper.url}${paper.comment ? ` "${paper.comment}"` : ''}; add it to white_papers or not_named`,
        );
      if (!mapped && explained && paper.url !== 'EMT_NO_WP')
        report.push(`ESMA white paper without a named token: ${issuer.name}, ${paper.url}`);
    }
}

/** Every coin the universe covers, each with the record it is (an existing id, or a new one). */
function select(
  list: DefiLlamaList,
  universe: StablecoinUniverse,
  register: EmtFile,
  records: readonly DataDoc[],
  report: string[],
): Selected[] {
  const byId = new Map(list.coins.map((c) => [c.id, c]));
  const selected = new Map<string, Selected>();
  const add = (listed: ListedCoin | null, why: string, extra: Partial<Selected> = {}) => {
    const id = extra.id ?? recordOf(records, listed, kebab(listed?.symbol ?? ''));
    const was = selected.get(id);
    if (was) {
      was.why.push(why);
      Object.assign(was, { ...extra, why: was.why, listed: was.listed ?? listed });
      return;
    }
    selected.set(id, {
      id,
      symbol: listed?.symbol ?? '',
      name: listed?.name ?? '',
      peg: listed?.peg ?? '',
      listed,
      mapping: null,
      paper: null,
      why: [why],
      ...extra,
    });
  };

  for (const c of list.coins) if (c.peg === 'EUR') add(c, 'EUR-pegged');
  for (const u of universe.largest_usd) {
    const c = byId.get(u.defillama);
    if (!c || c.symbol !== u.symbol)
      report.push(
        `${'data/codes/stablecoin-universe.yaml'}: largest_usd ${u.symbol} is DefiLlama id ${u.defillama}, which the list ${c ? `names ${c.symbol}` : 'does not have'}; skipped`,
      );
    else add(c, 'largest USD');
  }
  for (const m of universe.white_papers) {
    const listed = m.defillama ? (byId.get(m.defillama) ?? null) : null;
    const paper = findPaper(register, m);
    if (!paper)
      report.push(`white paper of ${m.coin} (${m.lei}, ${m.url}) is not in ESMA's register copy`);
    add(listed, 'ESMA white paper', {
      id: records.some((r) => r.doc.get('id') === m.coin)
        ? m.coin
        : recordOf(records, listed, m.coin),
      mapping: m,
      paper,
      ...(listed ? {} : { symbol: m.symbol!, name: m.name!, peg: m.peg! }),
    });
  }
  reportUnmappedPapers(register, universe, report);
  // Every existing record stays covered, matched to the list where it can be.
  for (const r of records) {
    const id = String(r.doc.get('id'));
    if (selected.has(id)) continue;
    const defillama = r.doc.getIn(['aggregator_ids', 'defillama']);
    const listed =
      (defillama != null ? byId.get(String(defillama)) : undefined) ??
      list.coins.filter(
        (c) =>
          ticker(c.symbol) === ticker(String(r.doc.get('symbol'))) &&
          c.peg === String(r.doc.get('peg_currency')),
      );
    const one = Array.isArray(listed) ? (listed.length === 1 ? listed[0]! : null) : listed;
    selected.set(id, {
      id,
      symbol: String(r.doc.get('symbol')),
      name: String(r.doc.get('name')),
      peg: String(r.doc.get('peg_currency')),
      listed: one,
      mapping: null,
      paper: null,
      why: ['existing record'],
    });
  }
  return [...selected.values()].sort((a, b) => a.id.localeCompare(b.id));
}

function sourcesFor(
  coin: Selected,
  list: DefiLlamaList,
  register: EmtFile,
  ctx: ImportContext,
  withContracts: boolean,
): Source[] {
  const out: Source[] = [];
  const listed = coin.listed;
  if (listed) {
    const o = listed.origin;
    out.push({
      id: LIST_SOURCE,
      kind: 'data_aggregator',
      title: `DefiLlama stablecoin list (peggedData.ts): ${listed.name} (${listed.symbol}), peg ${listed.peg}, ${listed.mechanism}`,
      publisher: 'DefiLlama',
      // DefiLlama's own page of the coin; the repository, path, line and commit are in each fact's origin.
      url: `https://defillama.com/stablecoin/${defillamaSlug(listed.name)}`,
      accessed: ctx.today,
      published: listed.commit_date,
      provenance: provenanceOf(
        list.coinsInput,
        `https://github.com/${o.repository}/blob/${o.commit}/${o.path}`,
        list.coins.length,
        ctx.today,
      ),
    });
    if (withContracts)
      out.push({
        id: CONTRACTS_SOURCE,
        kind: 'data_aggregator',
        title: `DefiLlama stablecoin contracts (peggedData.ts chain configuration and adapters): ${listed.symbol}`,
        publisher: 'DefiLlama',
        url: `https://defillama.com/stablecoin/${defillamaSlug(listed.name)}`,
        accessed: ctx.today,
        published: listed.commit_date,
        provenance: provenanceOf(
          list.contractsInput,
          `https://github.com/${o.repository}/tree/${o.commit}/src`,
          list.contracts.length,
          ctx.today,
        ),
      });
  }
  const p = register.provenance;
  out.push({
    id: REGISTER_SOURCE,
    kind: 'regulator_register',
    title: `ESMA interim MiCA register, white papers for e-money tokens (EMTWP.csv), version of ${p.file_date ?? 'unknown date'}${coin.paper ? `: ${coin.paper.issuer.name} (LEI ${coin.paper.issuer.lei})` : ': no white paper for this token'}`,
    publisher: 'European Securities and Markets Authority',
    url: p.source_url,
    accessed: ctx.today,
    published: p.file_date,
    provenance: p,
  });
  return out;
}

function factsOf(
  coin: Selected,
  list: DefiLlamaList,
  register: EmtFile,
  ledgers: LedgerLookup,
  ctx: ImportContext,
  report: string[],
): CoinFacts {
  const rows = coin.listed ? contractsOf(coin.listed, list.contracts) : [];
  const { deployments, unmapped, unreadable } = deploymentsOf(rows, ledgers);
  if (unmapped.length)
    report.push(
      `  ${coin.id}: ${unmapped.length} contract row(s) on chains without a ledger code: ${[...new Set(unmapped.map((u) => u.split(' ')[0]))].join(', ')}`,
    );
  if (unreadable.length)
    report.push(`  ${coin.id}: not an address, skipped: ${unreadable.join('; ')}`);
  const chains = [...new Set(unmapped.map((u) => u.split(' ')[0]!))];
  return {
    coin,
    status: statusOf(coin),
    deployments,
    ledgersReason: chains.length
      ? `DefiLlama lists its token contracts on ${chains.join(', ')}; these chains are not yet matched to the registry's ledger codes.`
      : coin.listed
        ? "DefiLlama's stablecoin list gives no token contract for this coin."
        : "ESMA's register does not name the ledgers of this token.",
    paper: coin.paper ? paperFacts(coin.paper, ledgers) : null,
    sources: sourcesFor(coin, list, register, ctx, deployments.length > 0),
    backing: coin.listed ? BACKING[coin.listed.mechanism] : 'fiat_reserves',
    website: coin.listed?.url ?? null,
    today:
      [coin.listed?.commit_date, register.provenance.file_date]
        .filter((d): d is string => !!d)
        .sort()
        .at(-1) ?? ctx.today,
  };
}

async function run(ctx: ImportContext): Promise<ImportResult> {
  const list = readDefiLlamaList(ctx.input!);
  const universe = readUniverse(ctx.root);
  const register = readRegister(ctx.root);
  const ledgers = readLedgerLookup(ctx.root);
  const records = readDataDocs(ctx.root, 'data/stablecoins');
  const report = [
    `coins.csv: ${list.coins.length} coins; contracts.csv: ${list.contracts.length} rows; ESMA register version ${register.provenance.file_date}`,
  ];
  const selected = select(list, universe, register, records, report);
  const changes: FileChange[] = [];
  let created = 0;
  for (const coin of selected) {
    const facts = factsOf(coin, list, register, ledgers, ctx, report);
    const existing = records.find((r) => r.doc.get('id') === coin.id);
    if (existing && !coin.listed && !coin.paper) {
      report.push(`${existing.path}: in neither input; left as it is`);
      continue;
    }
    if (!existing) {
      const doc = parseDocument('{}');
      // A JSON copy: shared objects (one origin cited twice) must not become YAML aliases.
      doc.contents = nodeFor(
        doc,
        JSON.parse(JSON.stringify(newRecord(facts))),
      ) as typeof doc.contents;
      changes.push({
        path: `data/stablecoins/${coin.id}.yaml`,
        after: doc.toString({ lineWidth: 0 }),
      });
      created++;
      report.push(`data/stablecoins/${coin.id}.yaml: new (${coin.why.join(', ')})`);
      continue;
    }
    const before = renderDoc(existing);
    const said = updateRecord(existing.doc, facts);
    const after = renderDoc(existing);
    for (const s of said) report.push(`${existing.path}: ${s}`);
    if (after !== before) changes.push({ path: existing.path, after });
  }
  report.push(
    `${selected.length} coins covered, ${created} new, ${changes.length - created} updated`,
  );
  return { changes, report };
}

export const coinsImporter: Importer = {
  name: 'coins',
  summary:
    "the stablecoin universe from DefiLlama's coin list (coins.csv + contracts.csv) and ESMA's EMT register",
  needsInput: true,
  run,
};
