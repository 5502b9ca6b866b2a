// npm run data:import -- issuer-records --file <csv> [--write]
// An issuer's own record of its token contracts (rows.ts) as L1 evidence of the asset and series
// records that list the same contract. Matched on (ledger, address), never the address alone:
// issuers reuse one address for different tokens on different chains (Spiko's deployer; Superstate's
// USCC and USTB Plume addresses are its RedemptionIdle and other contracts on Ethereum).
// - A ledger entry whose (ledger, address) the issuer lists gets `issuer_record` evidence (the
//   repository, path and commit, or the page, with the record's date) and the symbol (and
//   decimals) the issuer states, which later ledger reads are compared with.
// - A record matched this way gains the issuer's other deployments of the same token: a ledger it
//   does not list (or lists without an address) is added with the issuer's address and evidence.
// - An entry whose address differs from the one the issuer lists for the same token on that
//   ledger, or whose stated symbol differs, is reported and nothing is written for it.
// Then the record's level is set to what its evidence supports (shared/levels.ts).
import type { Document, YAMLMap, YAMLSeq } from 'yaml';
import { isMap, isSeq } from 'yaml';
import type { TechnicalEvidence } from '../../domain/asset.ts';
import type { ImportContext, ImportResult, Importer } from '../shared/importer.ts';
import { ImportError } from '../shared/errors.ts';
import { nodeFor, readDataDocs, renderDoc, type DataDoc } from '../shared/data-docs.ts';
import {
  ASSET_DIRS,
  datasetDateOf,
  evidenceMaxAge,
  levelLine,
  programmesOf,
  settleLevel,
} from '../shared/levels.ts';
import { entryKey, readIssuerRows, type IssuerRow } from './rows.ts';

const EVIDENCE = ['validation', 'evidence', 'technical'] as const;

function evidenceFor(row: IssuerRow, address: string): TechnicalEvidence {
  return {
    ledger: row.ledger!,
    // As the ledger entry writes it: the evidence names the same contract.
    contract_address: address,
    method: 'issuer_record',
    source: null,
    as_of: row.date!,
    symbol: row.ticker,
    ...(row.decimals === undefined ? {} : { decimals: row.decimals }),
    record: row.record,
  };
}

/** Puts the evidence in place of the same issuer record's entry for that contract, or appends it. */
function writeEvidence(doc: Document, evidence: TechnicalEvidence): void {
  const list = doc.getIn(EVIDENCE);
  const node = nodeFor(doc, evidence);
  if (!isSeq(list) || list.items.length === 0) {
    doc.setIn(EVIDENCE, nodeFor(doc, [evidence]));
    return;
  }
  const same = (item: unknown) => {
    if (
      !isMap(item) ||
      item.get('method') !== 'issuer_record' ||
      item.get('ledger') !== evidence.ledger
    )
      return false;
    const address = item.get('contract_address');
    const record = (item.get('record', true) as YAMLMap | undefined)?.toJSON() as
      { url?: string; repository?: string; path?: string } | undefined;
    return (
      typeof address === 'string' &&
      entryKey(evidence.ledger, address) ===
        entryKey(evidence.ledger, evidence.contract_address!) &&
      (record?.repository
        ? record.repository === evidence.record!.repository && record.path === evidence.record!.path
        : record?.url === evidence.record!.url)
    );
  };
  const at = list.items.findIndex(same);
  if (at >= 0) {
    const before = JSON.stringify((list.items[at] as YAMLMap).toJSON());
    if (before !== JSON.stringify(evidence)) list.items[at] = node;
  } else list.items.push(node);
}

/** Sets a stated fact on a ledger entry where it is not stated yet; a different one is a conflict. */
function state(
  entry: YAMLMap,
  key: 'symbol' | 'decimals',
  value: string | number | undefined,
): string | null {
  if (value === undefined) return null;
  const had = entry.get(key);
  if (had === undefined || had === null) {
    entry.set(key, value);
    return null;
  }
  return had === value
    ? null
    : `the record states ${key} ${JSON.stringify(had)}, the issuer ${JSON.stringify(value)}`;
}

interface Matched {
  row: IssuerRow;
  entry: YAMLMap;
}

/** The rows that can be used: current, placed on a ledger, dated, and not after the dataset date. */
function usableRows(rows: readonly IssuerRow[], date: string, report: string[]): IssuerRow[] {
  let later = 0;
  const usable = rows.filter((r) => {
    if (!r.current) return false;
    if (r.ledger === null) {
      report.push(`  row ${r.row} ${r.ticker} ${r.address}: not matched: ${r.unplaced}`);
      return false;
    }
    if (r.date === null) {
      report.push(
        `  row ${r.row} ${r.ticker} ${r.ledger} ${r.address}: not used: the record carries no date`,
      );
      return false;
    }
    if (r.date > date) {
      later++;
      return false;
    }
    return true;
  });
  if (later)
    report.push(
      `  ${later} row(s) dated after the dataset date ${date}: used once a refresh raises it to their date`,
    );
  const notCurrent = rows.filter((r) => !r.current).length;
  if (notCurrent)
    report.push(`  ${notCurrent} row(s) no longer in the issuer's latest record: not used`);
  return usable;
}

// A token is an issuer's ticker: two issuers may use one ticker.
const tokenOf = (publisher: string, ticker: string) => `${publisher}\n${ticker}`;

/** The usable rows by (ledger, address) (the newest per token), by token, and by bare address. */
function indexRows(usable: readonly IssuerRow[], report: string[]) {
  // The newest row for each (ledger, address) and token.
  const byKey = new Map<string, IssuerRow>();
  for (const r of usable) {
    const key = entryKey(r.ledger!, r.address);
    const had = byKey.get(key);
    if (had && had.ticker !== r.ticker)
      report.push(
        `  ${r.ledger} ${r.address}: listed as ${had.ticker} and ${r.ticker}: ${had.ticker} kept`,
      );
    if (!had || (had.ticker === r.ticker && had.date! < r.date!)) byKey.set(key, r);
  }
  const byToken = new Map<string, IssuerRow[]>();
  for (const r of byKey.values()) {
    const token = tokenOf(r.record.publisher, r.ticker);
    byToken.set(token, [...(byToken.get(token) ?? []), r]);
  }
  const addresses = new Map<string, string[]>();
  for (const r of byKey.values()) {
    const a = entryKey('', r.address);
    addresses.set(a, [...(addresses.get(a) ?? []), r.ledger!]);
  }

  return { byKey, byToken, addresses };
}

/**
 * The issuer's deployments of the record's token on ledgers where the record has no address: the
 * ledger entry gets the issuer's address (or a new entry is added), with the evidence. A ledger
 * where the record lists another address is reported, not written.
 */
function addDeployments(
  doc: Document,
  ledgers: YAMLSeq,
  entries: readonly YAMLMap[],
  tokenRows: readonly IssuerRow[],
  id: string,
  report: string[],
): void {
  for (const row of tokenRows) {
    const onLedger = entries.filter((e) => e.get('ledger') === row.ledger);
    if (onLedger.some((e) => typeof e.get('contract_address') === 'string')) {
      const listed = onLedger.find(
        (e) =>
          typeof e.get('contract_address') === 'string' &&
          entryKey(row.ledger!, String(e.get('contract_address'))) ===
            entryKey(row.ledger!, row.address),
      );
      if (!listed)
        report.push(
          `  ${id} ${row.ledger} ${String(onLedger[0]!.get('contract_address'))}: DISAGREES: the issuer lists ${row.ticker} on ${row.ledger} at ${row.address}: not written`,
        );
      continue;
    }
    const entry = onLedger[0];
    if (entry) {
      entry.set('contract_address', row.address);
      entry.set('contract_address_null_reason', null);
      entry.set('symbol', row.ticker);
      if (row.decimals !== undefined) entry.set('decimals', row.decimals);
    } else {
      ledgers.items.push(
        nodeFor(doc, {
          ledger: row.ledger,
          token_standard: null,
          contract_address: row.address,
          contract_address_null_reason: null,
          symbol: row.ticker,
          ...(row.decimals === undefined ? {} : { decimals: row.decimals }),
        }),
      );
    }
    report.push(
      `  ${id} ${row.ledger} ${row.address}: added, as the issuer lists ${row.ticker} there`,
    );
    writeEvidence(doc, evidenceFor(row, row.address));
  }
}

/**
 * The issuers' tokens a record already rests on (evidence from an earlier import of another of
 * their files), or, for a record listing no contract, the token its ticker and issuer name.
 */
function knownTokens(
  doc: Document,
  matched: readonly Matched[],
  entries: readonly YAMLMap[],
  byToken: ReadonlyMap<string, IssuerRow[]>,
  id: string,
  report: string[],
): string[] {
  // The issuers' tokens the record already rests on (an earlier import of another of their files).
  const held = ((doc.getIn(EVIDENCE, true) as { toJSON(): unknown } | undefined)?.toJSON() ??
    []) as TechnicalEvidence[];
  const known = held.flatMap((e) =>
    e.method === 'issuer_record' && e.record && e.symbol
      ? [tokenOf(e.record.publisher, e.symbol)]
      : [],
  );
  // A record that lists no contract at all has no address to match: it is the issuer's token
  // only where its ticker is the issuer's and its issuer or sponsor is the record's publisher.
  if (
    !matched.length &&
    !known.length &&
    entries.every((e) => typeof e.get('contract_address') !== 'string')
  ) {
    const shortName = doc.get('short_name');
    const issuer = JSON.stringify(doc.get('issuer', true) ?? '').toLowerCase();
    const named = [...byToken.keys()].find((t) => {
      const [publisher, ticker] = t.split('\n') as [string, string];
      return ticker === shortName && issuer.includes(publisher.split(' ')[0]!.toLowerCase());
    });
    if (named) {
      known.push(named);
      report.push(
        `  ${id}: no contract listed; identified as ${named.replace('\n', "'s ")} by its ticker and issuer`,
      );
    }
  }
  return known;
}

async function run({ root, input, today }: ImportContext): Promise<ImportResult> {
  if (!input)
    throw new ImportError(
      { input: 'issuer-records' },
      'needs a file',
      'an issuer address record (--file)',
    );
  const rows = readIssuerRows(input, root);
  const date = datasetDateOf(root, today);
  const report: string[] = [`${input.name}: ${rows.length} row(s)`];
  const { byKey, byToken, addresses } = indexRows(usableRows(rows, date, report), report);

  const files = ASSET_DIRS.flatMap((dir) => readDataDocs(root, dir));
  const programmes = programmesOf(files);
  const maxAge = evidenceMaxAge(root);
  const edited = new Set<DataDoc>();
  let raised = 0;
  for (const file of files) {
    const ledgers = file.doc.get('ledgers');
    if (!isSeq(ledgers)) continue;
    const id = String(file.doc.get('tfin'));
    const entries = ledgers.items.filter(isMap) as YAMLMap[];
    const matched: Matched[] = [];
    for (const entry of entries) {
      const ledger = String(entry.get('ledger'));
      const address = entry.get('contract_address');
      if (typeof address !== 'string') continue;
      const row = byKey.get(entryKey(ledger, address));
      if (row) matched.push({ row, entry });
      else if (addresses.has(entryKey('', address)))
        report.push(
          `  ${id} ${ledger} ${address}: the issuer lists this address on ${addresses.get(entryKey('', address))!.join(', ')} only: not a match (matched on ledger and address)`,
        );
    }
    const known = knownTokens(file.doc, matched, entries, byToken, id, report);
    if (!matched.length && !known.some((t) => byToken.has(t))) continue;
    // The token the record is: its ticker where the issuer lists it, else the one most entries match.
    const tickers = [
      ...matched.map((m) => tokenOf(m.row.record.publisher, m.row.ticker)),
      ...known,
    ];
    const shortName = file.doc.get('short_name');
    const token =
      tickers.find(
        (t) =>
          typeof shortName === 'string' &&
          t.split('\n')[1]!.toLowerCase() === shortName.toLowerCase(),
      ) ??
      [...new Set(tickers)].sort(
        (a, b) => tickers.filter((t) => t === b).length - tickers.filter((t) => t === a).length,
      )[0]!;
    const before = file.doc.toString();
    for (const { row, entry } of matched) {
      const at = `  ${id} ${row.ledger} ${row.address}`;
      if (tokenOf(row.record.publisher, row.ticker) !== token) {
        report.push(
          `${at}: DISAGREES: the issuer lists this contract as ${row.ticker}, the record's other contracts as ${token.split('\n')[1]}: not written`,
        );
        continue;
      }
      const conflict = state(entry, 'symbol', row.ticker) ?? state(entry, 'decimals', row.decimals);
      if (conflict) {
        report.push(`${at}: DISAGREES: ${conflict}: not written`);
        continue;
      }
      writeEvidence(file.doc, evidenceFor(row, String(entry.get('contract_address'))));
    }
    // The issuer's other deployments of the token.
    addDeployments(file.doc, ledgers, entries, byToken.get(token) ?? [], id, report);
    const settled = settleLevel(file, programmes, maxAge, date);
    if (settled) {
      report.push(levelLine(id, settled));
      if (settled.to !== 'unverified') raised++;
    }
    if (file.doc.toString() !== before) edited.add(file);
  }
  report.push(`${edited.size} record(s) with new or changed evidence; ${raised} raised`);
  return { changes: [...edited].map((f) => ({ path: f.path, after: renderDoc(f) })), report };
}

export const issuerRecordsImporter: Importer = {
  name: 'issuer-records',
  summary: "issuers' own records of their token contracts (L1 evidence on (ledger, address))",
  needsInput: true,
  run,
};
