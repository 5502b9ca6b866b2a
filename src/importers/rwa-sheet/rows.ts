// DefiLlama's RWA asset sheet (defillama-rwa/rwa-sheet-12jan.csv, `defi/src/rwa/12Jan.csv` of
// DefiLlama/defillama-server): one product or platform a row. The file is taken only as captured
// (its SHA-256 binds the rows to the commit they were read at); `x` stands for "none" in it.
import { readCsv } from '../shared/csv.ts';
import { cell, requireColumns } from '../shared/csv-cells.ts';
import { ImportError } from '../shared/errors.ts';
import type { SourceInput } from '../shared/input.ts';

export interface SheetOrigin {
  repository: string;
  path: string;
  commit: string;
  /** The SHA-256 of the file as captured at that commit: another file's rows have no known commit. */
  sha256: string;
}

export const SHEET: SheetOrigin = {
  repository: 'DefiLlama/defillama-server',
  path: 'defi/src/rwa/12Jan.csv',
  commit: 'c0d2c745bd2e6ff5f783deedf756e6e71c082cf6',
  sha256: '92cd0971feec49ca9174dc48f9d75f40e5734e7088ece8b3a75008feb8e3e22e',
};

export interface SheetRow {
  row: number;
  id: string;
  ticker: string | null;
  name: string;
  type: string;
  chains: string[];
  /** `chain:address` pairs as the sheet gives them (leads only: never written from the sheet alone). */
  contracts: { chain: string; address: string }[];
  category: string;
  asset_class: string;
  issuer: string | null;
  registry_info: string | null;
  isin: string | null;
  flags: SheetFlags;
}

/** The sheet's yes/no columns (✓ or x; null where a cell holds neither) and its access model. */
export interface SheetFlags {
  access_model: 'permissionless' | 'permissioned' | 'non_transferable' | 'custodial_only' | null;
  redeemable: boolean | null;
  exchange_listed: boolean | null;
  kyc_to_mint_or_redeem: boolean | null;
  allowlist_to_transfer_or_hold: boolean | null;
  transferable: boolean | null;
  self_custody: boolean | null;
  attestations: boolean | null;
}

/** Each flag and the sheet column it is read from. */
export const FLAG_COLUMNS = {
  redeemable: 'Redeemable',
  exchange_listed: 'CEX Listed',
  kyc_to_mint_or_redeem: 'KYC for mint/redeem',
  allowlist_to_transfer_or_hold: 'KYC/Allowlisted/Whitelisted to Transfer/Hold',
  transferable: 'Transferable',
  self_custody: 'Self Custody',
  attestations: 'Attestations',
} as const;

const ACCESS_MODELS: Record<string, SheetFlags['access_model']> = {
  permissionless: 'permissionless',
  permissioned: 'permissioned',
  'non-transferable': 'non_transferable',
  'custodial only': 'custodial_only',
};

const yesNo = (v: string | null) => (v === '✓' ? true : v === 'x' ? false : null);

export const SHEET_COLUMNS = [
  '*RWA ID',
  'Ticker',
  'Name',
  'Type',
  'Chain',
  'Contracts',
  'Category',
  'Asset Class',
  'Issuer',
  'Issuer Registry Info',
  'ISIN',
  'Access Model',
  ...Object.values(FLAG_COLUMNS),
] as const;

const none = (v: string | null) => (v === null || v === 'x' || v === '-' ? null : v);

export function readSheetRows(input: SourceInput, sheet: SheetOrigin = SHEET): SheetRow[] {
  if (input.sha256 !== sheet.sha256)
    throw new ImportError(
      { input: input.name },
      `is not the captured 12Jan.csv (SHA-256 ${input.sha256.slice(0, 12)}…), so the commit its rows come from is unknown`,
      `the sheet as captured at ${sheet.repository} ${sheet.commit.slice(0, 12)} (SHA-256 ${sheet.sha256.slice(0, 12)}…); a newer sheet needs its commit recorded in rows.ts`,
    );
  const table = readCsv(input);
  requireColumns(table, SHEET_COLUMNS, "DefiLlama's RWA sheet (12Jan.csv)");
  return table.rows.map((row) => {
    const c = cell(table, row);
    const text = (column: string) => none(c.text(column)?.replace(/\s+/g, ' ') ?? null);
    const contracts = (text('Contracts') ?? '')
      .split(';')
      .map((p) => /^\s*([a-z0-9_]+):(\S+)/.exec(p))
      .filter((m): m is RegExpExecArray => !!m)
      .map((m) => ({ chain: m[1]!, address: m[2]! }));
    return {
      row: row.row,
      id: c.required('*RWA ID', 'the sheet id of the row'),
      ticker: text('Ticker'),
      name: text('Name') ?? '',
      type: text('Type') ?? '',
      chains: (text('Chain') ?? '')
        .split(/[;,]/)
        .map((s) => s.trim().toLowerCase())
        .filter((s) => s && s !== 'x'),
      contracts,
      category: text('Category') ?? '',
      asset_class: text('Asset Class') ?? '',
      issuer: text('Issuer'),
      registry_info: text('Issuer Registry Info'),
      isin: text('ISIN')?.toUpperCase() ?? null,
      flags: {
        access_model: ACCESS_MODELS[(c.text('Access Model') ?? '').trim().toLowerCase()] ?? null,
        ...(Object.fromEntries(
          Object.entries(FLAG_COLUMNS).map(([flag, column]) => [
            flag,
            yesNo(c.text(column)?.trim() ?? null),
          ]),
        ) as Omit<SheetFlags, 'access_model'>),
      },
    };
  });
}
