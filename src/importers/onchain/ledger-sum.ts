// A coin's circulating supply summed from its ledgers: the total supply of every `issued`
// deployment read, less the issuer's own unreleased or reserve balances in it. Bridged copies are
// never added (their tokens are counted on the ledger they were issued on, usually in a bridge's
// escrow there). Pure: the reads come in, the dated figure (or nothing to record) goes out.
import type { LedgerCirculatingSupply } from '../../domain/market.ts';

export interface ContractRead {
  ledger: string;
  contract_address: string;
  chain_id: number;
  block_number: number;
  block_time: string;
  total_supply: number;
  issuer_held: {
    address: string;
    kind: 'unreleased' | 'reserves' | 'uncirculating';
    balance: number;
  }[];
}

export interface NotRead {
  ledger: string;
  contract_address: string | null;
  reason: string;
}

/** Six decimal places: sums of token amounts come out without binary noise. */
const tidy = (n: number) => Math.round(n * 1e6) / 1e6;

/**
 * The ledger sum of one coin, or null when no issued deployment was read (nothing to record).
 * Dated by the earliest block read: every read is at or after that day.
 */
export function ledgerSum(
  reads: readonly ContractRead[],
  notRead: readonly NotRead[],
): LedgerCirculatingSupply | null {
  if (reads.length === 0) return null;
  const sorted = [...reads].sort(
    (a, b) =>
      a.ledger.localeCompare(b.ledger) ||
      a.contract_address.toLowerCase().localeCompare(b.contract_address.toLowerCase()),
  );
  const value = sorted.reduce(
    (n, r) => n + r.total_supply - r.issuer_held.reduce((m, h) => m + h.balance, 0),
    0,
  );
  return {
    kind: 'ledger_sum',
    value: Math.max(0, tidy(value)),
    as_of: sorted.map((r) => r.block_time.slice(0, 10)).sort()[0]!,
    complete: notRead.length === 0,
    reads: sorted.map((r) => ({ ...r, issuer_held: r.issuer_held.map((h) => ({ ...h })) })),
    not_read: [...notRead].sort(
      (a, b) =>
        a.ledger.localeCompare(b.ledger) ||
        (a.contract_address ?? '').localeCompare(b.contract_address ?? ''),
    ),
  };
}
