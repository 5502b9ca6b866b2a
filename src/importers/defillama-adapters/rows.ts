// DefiLlama's RWA adapter file (defillama-rwa/adapter-contracts.csv): one (product, chain, token
// address) a row, with the adapter file, line and commit it was read at. Rows are checked here;
// a damaged row stops the import with the file, row and column named.
import { readCsv } from '../shared/csv.ts';
import { cell, commitDate, originOf, requireColumns, type RowOrigin } from '../shared/csv-cells.ts';
import type { SourceInput } from '../shared/input.ts';

export interface AdapterRow {
  row: number;
  product: string | null;
  ticker: string | null;
  issuer: string;
  asset_class: string;
  chain: string;
  /** The EIP-55 form of an EVM address; any other address as the adapter writes it. */
  address: string;
  label_basis: string;
  note: string | null;
  origin: RowOrigin;
  commit_date: string;
}

export const ADAPTER_COLUMNS = [
  'product',
  'ticker',
  'issuer',
  'asset_class',
  'chain',
  'address',
  'address_checksummed',
  'address_format',
  'label_basis',
  'note',
  'source_repo',
  'source_path',
  'source_line',
  'source_commit',
  'source_commit_date',
] as const;

const EVM = /^0x[0-9a-fA-F]{40}$/;

export function readAdapterRows(input: SourceInput): AdapterRow[] {
  const table = readCsv(input);
  requireColumns(table, ADAPTER_COLUMNS, "DefiLlama's RWA adapter file (adapter-contracts.csv)");
  return table.rows.map((row) => {
    const c = cell(table, row);
    const address = c.required('address', 'the token address as the adapter writes it');
    const format = c.required('address_format', 'evm, base58, hex64(move/starknet) or other');
    const checksummed = c.text('address_checksummed');
    if (format === 'evm' && !EVM.test(address))
      c.fail('address', `"${address}" is not an EVM address`, '0x and 40 hexadecimal digits');
    if (format === 'evm' && checksummed && checksummed.toLowerCase() !== address.toLowerCase())
      c.fail(
        'address_checksummed',
        `"${checksummed}" is not the address "${address}"`,
        'the EIP-55 form of the same address',
      );
    return {
      row: row.row,
      product: c.text('product'),
      ticker: c.text('ticker'),
      issuer: c.required('issuer', 'the issuer the adapter belongs to'),
      asset_class: c.required('asset_class', 'the asset class of the product'),
      chain: c.required('chain', "DefiLlama's key of the chain"),
      address: format === 'evm' ? (checksummed ?? address) : address,
      label_basis: c.required('label_basis', 'how the ticker was attached to the address'),
      note: c.text('note'),
      origin: originOf(c),
      commit_date: commitDate(c),
    };
  });
}
