// DefiLlama's stablecoin list as captured from DefiLlama/peggedassets-server: coins.csv (one pegged
// asset a row, with the line of its entry in peggedData.ts) and contracts.csv (per-chain token,
// wallet and escrow addresses). Each row keeps where it came from, so every imported fact can name
// its repository, path, line and commit.
import path from 'node:path';
import { readCsv } from '../shared/csv.ts';
import {
  DATE,
  cell,
  commitDate,
  originOf,
  requireColumns,
  type RowOrigin,
} from '../shared/csv-cells.ts';
import { ImportError } from '../shared/errors.ts';
import { readFileInput, type SourceInput } from '../shared/input.ts';

export type { RowOrigin } from '../shared/csv-cells.ts';

export interface ListedCoin {
  id: string;
  name: string;
  symbol: string;
  gecko_id: string | null;
  /** The peg's currency: `peggedEUR` → `EUR` (`VAR` for a variable peg). */
  peg: string;
  mechanism: 'fiat-backed' | 'crypto-backed' | 'algorithmic';
  url: string | null;
  dead_from: string | null;
  delisted: boolean;
  deprecated: boolean;
  origin: RowOrigin;
  /** The date of the commit the row was read at (YYYY-MM-DD). */
  commit_date: string;
}

export interface ListedContract {
  gecko_id: string | null;
  symbol: string;
  name: string;
  chain: string;
  kind: string;
  /** EIP-55 form for an EVM address (as the source wrote it where its checksum is another chain's). */
  address: string;
  origin: RowOrigin;
  row: number;
}

export interface DefiLlamaList {
  coins: ListedCoin[];
  contracts: ListedContract[];
  coinsInput: SourceInput;
  contractsInput: SourceInput;
}

const COIN_COLUMNS = [
  'id',
  'name',
  'symbol',
  'gecko_id',
  'pegType',
  'pegMechanism',
  'url',
  'deadFrom',
  'delisted',
  'deprecated',
  'source_repo',
  'source_path',
  'source_line',
  'source_commit',
  'source_commit_date',
];
const CONTRACT_COLUMNS = [
  'gecko_id',
  'symbol',
  'name',
  'chain',
  'kind',
  'address',
  'address_checksummed',
  'evm_checksum',
  'source_repo',
  'source_path',
  'source_line',
  'source_commit',
];
const MECHANISMS = new Set(['fiat-backed', 'crypto-backed', 'algorithmic']);

export function readCoins(input: SourceInput): ListedCoin[] {
  const table = readCsv(input);
  const what = "DefiLlama's coin list (coins.csv)";
  requireColumns(table, COIN_COLUMNS, what);
  const seen = new Map<string, number>();
  return table.rows.map((row) => {
    const c = cell(table, row);
    const id = c.required('id', 'the DefiLlama id of the coin');
    if (!/^[0-9]+$/.test(id)) c.fail('id', `"${id}" is not a DefiLlama id`, 'a whole number');
    if (seen.has(id))
      c.fail('id', `id ${id} appears again (first on row ${seen.get(id)})`, 'each id once');
    seen.set(id, row.row);
    const pegType = c.required('pegType', 'the peg type, e.g. "peggedUSD"');
    const peg = /^pegged([A-Z]{3,4})$/.exec(pegType)?.[1] ?? null;
    if (peg === null)
      return c.fail('pegType', `"${pegType}" is not a peg type`, 'a peg type like "peggedUSD"');
    const mechanism = c.required('pegMechanism', 'the peg mechanism');
    if (!MECHANISMS.has(mechanism))
      c.fail('pegMechanism', `"${mechanism}" is not a peg mechanism`, [...MECHANISMS].join(', '));
    const deadFrom = c.text('deadFrom');
    if (deadFrom !== null && !DATE.test(deadFrom))
      c.fail('deadFrom', `"${deadFrom}" is not a date`, 'a date written YYYY-MM-DD, or nothing');
    return {
      id,
      name: c.required('name', 'the name of the coin'),
      symbol: c.required('symbol', 'the ticker of the coin'),
      gecko_id: c.text('gecko_id'),
      peg,
      mechanism: mechanism as ListedCoin['mechanism'],
      url: c.text('url'),
      dead_from: deadFrom,
      delisted: c.text('delisted') === 'True',
      deprecated: c.text('deprecated') === 'True',
      origin: originOf(c),
      commit_date: commitDate(c),
    };
  });
}

export function readContracts(input: SourceInput): ListedContract[] {
  const table = readCsv(input);
  requireColumns(table, CONTRACT_COLUMNS, "DefiLlama's contract list (contracts.csv)");
  return table.rows.map((row) => {
    const c = cell(table, row);
    const address = c.required('address', 'the address as the source writes it');
    // EVM addresses in their EIP-55 form, except RSK's, whose checksum is its own (EIP-1191).
    const checksummed = c.text('address_checksummed');
    const evm = /^0x[0-9a-fA-F]{40}$/.test(address);
    return {
      gecko_id: c.text('gecko_id'),
      symbol: c.required('symbol', 'the ticker of the coin'),
      name: c.required('name', 'the name of the coin'),
      chain: c.required('chain', "DefiLlama's key of the chain"),
      kind: c.required('kind', 'issued, bridgedFrom<Chain>, or a wallet kind'),
      address: evm && checksummed && c.text('chain') !== 'rsk' ? checksummed : address,
      origin: originOf(c),
      row: row.row,
    };
  });
}

/** coins.csv as given, and contracts.csv beside it. */
export function readDefiLlamaList(coinsInput: SourceInput): DefiLlamaList {
  if (coinsInput.kind !== 'file')
    throw new ImportError(
      { input: coinsInput.name },
      'is a URL',
      'the captured coins.csv on disk, with contracts.csv beside it',
    );
  const contractsInput = readFileInput(path.join(path.dirname(coinsInput.name), 'contracts.csv'));
  return {
    coins: readCoins(coinsInput),
    contracts: readContracts(contractsInput),
    coinsInput,
    contractsInput,
  };
}
