// An issuer's own record of its token contracts, one (token, ledger, address) a row: the captured
// issuer files (../shared/data/issuer-records/*.csv: xStocks' token list, Spiko's deployment
// records, Midas's address registry, Superstate's USTB deployment, each row with repository, path
// and commit) and the editors' transcription of issuers' published address tables
// (data/sources/issuer-addresses.csv, each row with its page, publisher and date). The ledger is
// the project's code for the row's EIP-155 chain id (data/codes/ledgers.yaml), never the source's
// network name: Midas's "oasis" is chain 23294 (Oasis Sapphire), not the OAS code (Emerald, 42262).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getAddress, isAddress } from 'viem';
import { parse } from 'yaml';
import { ledgerTable } from '../../domain/codes.ts';
import type { IssuerRecordRef } from '../../domain/asset.ts';
import { readCsv, type CsvTable } from '../shared/csv.ts';
import { cell, DATE, requireColumns } from '../shared/csv-cells.ts';
import { LEDGERS_FILE } from '../shared/ledgers.ts';
import type { SourceInput } from '../shared/input.ts';

export interface IssuerRow {
  row: number;
  ticker: string;
  product: string | null;
  /** The project's ledger code; null when no code has the row's chain (the reason in `unplaced`). */
  ledger: string | null;
  unplaced?: string;
  /** EIP-55 for an EVM address; any other exactly as the issuer writes it. */
  address: string;
  decimals?: number;
  /** The date of the record: the commit's date, or the page's publication or copy date. */
  date: string | null;
  /** False for a row the issuer's latest record no longer lists. */
  current: boolean;
  record: IssuerRecordRef;
}

/**
 * Who publishes each captured repository's record (the owners are the issuers' own GitHub
 * organisations, as ../shared/data/issuer-records/README.md records).
 */
const REPOSITORY_PUBLISHERS: Record<string, string> = {
  'backed-fi': 'xStocks (Backed Assets (JE) Limited)',
  'spiko-tech': 'Spiko',
  'midas-apps': 'Midas',
  superstateinc: 'Superstate Inc.',
};

const REQUIRED = ['ticker', 'chain_id', 'ledger', 'address'] as const;

/** EIP-155 chain id → ledger code, from the project's table. */
function ledgersByChainId(root: string) {
  const table = ledgerTable.parse(parse(readFileSync(path.join(root, LEDGERS_FILE), 'utf8')));
  const byId = new Map<number, string>();
  for (const l of table.ledgers) if (l.vm === 'evm' && l.chain_id) byId.set(l.chain_id, l.code);
  return { byId, codes: new Set(table.ledgers.map((l) => l.code)) };
}

type Cells = ReturnType<typeof cell>;

/** The row's ledger code: its chain id's, or the code it names for a non-EVM ledger; else why not. */
function placeLedger(
  c: Cells,
  chainId: number | null,
  { byId, codes }: ReturnType<typeof ledgersByChainId>,
): { ledger: string | null; unplaced: string | undefined } {
  let ledger: string | null;
  let unplaced: string | undefined;
  if (chainId !== null) {
    ledger = byId.get(chainId) ?? null;
    if (!ledger)
      unplaced = `chain id ${chainId} (${c.text('chain') ?? 'unnamed'}) is no ledger of ${LEDGERS_FILE}`;
  } else {
    ledger = c.text('ledger');
    if (!ledger || !codes.has(ledger)) {
      unplaced = `ledger "${ledger ?? ''}" (${c.text('chain') ?? 'unnamed'}) is not a code of ${LEDGERS_FILE}`;
      ledger = null;
    }
  }
  return { ledger, unplaced };
}

/** The record of a row of a captured issuer repository file: its repository, path and commit. */
function repositoryRecord(c: Cells, table: CsvTable): IssuerRecordRef {
  const repository = c.required('repo', 'the issuer repository, "owner/name"');
  const file = c.required('path', 'the path of the record in the repository');
  const commit = c.required('commit', 'the 40-hex commit the row was read at');
  if (!/^[0-9a-f]{40}$/.test(commit))
    c.fail('commit', `"${commit}" is not a commit id`, 'the 40-hex commit id');
  const owner = repository.split('/')[0]!;
  const publisher = REPOSITORY_PUBLISHERS[owner];
  if (!publisher)
    c.fail(
      'repo',
      `"${repository}" is not a repository of a known issuer`,
      `a repository of ${Object.keys(REPOSITORY_PUBLISHERS).join(', ')}`,
    );
  const lineText = table.header.includes('line') ? c.text('line') : null;
  const line = lineText === null ? undefined : Number(lineText);
  return {
    publisher: publisher!,
    title: `Token contracts as published by ${publisher} (${file} in ${repository})`,
    url: `https://github.com/${repository}/blob/${commit}/${file}${line ? `#L${line}` : ''}`,
    repository,
    path: file,
    ...(line ? { line } : {}),
    commit,
  };
}

/** The record of a row of a transcribed issuer page: its URL, publisher and title. */
function pageRecord(c: Cells): IssuerRecordRef {
  const url = c.required('source_url', 'the page that lists the address');
  if (!/^https?:\/\//.test(url))
    c.fail('source_url', `"${url}" is not a URL`, 'a full https:// URL');
  const repository = c.text('repo');
  const commit = c.text('commit');
  return {
    publisher: c.required('publisher', 'who publishes the page (the issuer)'),
    title: c.text('source_title') ?? `${c.required('publisher', 'the issuer')} contract addresses`,
    url,
    ...(repository ? { repository } : {}),
    ...(repository && c.text('path') ? { path: c.text('path')! } : {}),
    ...(repository && commit && /^[0-9a-f]{40}$/.test(commit) ? { commit } : {}),
  };
}

export function readIssuerRows(input: SourceInput, root: string): IssuerRow[] {
  const table = readCsv(input);
  requireColumns(table, REQUIRED, 'an issuer address record');
  // A captured issuer file names its repository per row; a transcription names its page.
  const fromRepository = table.header.includes('repo') && !table.header.includes('source_url');
  if (!fromRepository)
    requireColumns(table, ['source_url', 'publisher'], 'an issuer address table transcription');
  const ledgers = ledgersByChainId(root);
  return table.rows.map((r) => {
    const c = cell(table, r);
    const ticker = c.required('ticker', 'the token symbol as the issuer writes it');
    const chainText = c.text('chain_id');
    const chainId = chainText === null ? null : Number(chainText);
    if (chainId !== null && !(Number.isInteger(chainId) && chainId > 0))
      c.fail(
        'chain_id',
        `"${chainText}" is not a chain id`,
        'the EIP-155 chain id, or nothing for a non-EVM ledger',
      );
    const { ledger, unplaced } = placeLedger(c, chainId, ledgers);
    const written = c.required('address', 'the contract address as the issuer writes it');
    if (written.startsWith('0x') && written.length === 42 && !isAddress(written, { strict: false }))
      c.fail('address', `"${written}" is not an EVM address`, '0x and 40 hex digits');
    const evm = written.startsWith('0x') && written.length === 42;
    // EVM addresses are matched case-blind: some issuers' lists write a case that is no EIP-55
    // checksum (Ondo's), and a wrong digit would match no record anyway.
    const decimalsText = table.header.includes('decimals') ? c.text('decimals') : null;
    const date = fromRepository
      ? table.header.includes('commit_date')
        ? c.text('commit_date')
        : null
      : c.text('published_or_copy_date');
    if (date !== null && !DATE.test(date))
      c.fail(
        fromRepository ? 'commit_date' : 'published_or_copy_date',
        `"${date}" is not a date`,
        'YYYY-MM-DD',
      );
    const product = c.text('product');
    const record = fromRepository ? repositoryRecord(c, table) : pageRecord(c);
    return {
      row: r.row,
      ticker,
      product,
      ledger,
      ...(unplaced ? { unplaced } : {}),
      address: evm ? getAddress(written.toLowerCase()) : written,
      ...(decimalsText !== null && /^\d+$/.test(decimalsText)
        ? { decimals: Number(decimalsText) }
        : {}),
      date,
      current: !table.header.includes('in_head') || c.text('in_head') !== 'no',
      record,
    };
  });
}

/** The key a ledger entry and an issuer row are matched on: (ledger, address), EVM case-blind. */
export const entryKey = (ledger: string, address: string) =>
  `${ledger}\n${address.startsWith('0x') && address.length === 42 ? address.toLowerCase() : address}`;
