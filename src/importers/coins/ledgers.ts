// DefiLlama chain keys → ledger codes, through the shared ledger table (src/importers/shared/
// ledgers.ts). A chain without a code is reported by the importer, never guessed.
import { readLedgers } from '../shared/ledgers.ts';

export interface LedgerLookup {
  codeFor(chain: string): string | undefined;
  /** The code of a ledger named as ESMA's register names it ("Ethereum"), when the table has it. */
  codeForName(name: string): string | undefined;
}

export function readLedgerLookup(root: string): LedgerLookup {
  const ledgers = readLedgers(root);
  return {
    codeFor: (chain) => ledgers.forChain('defillama', chain),
    codeForName: (name) => ledgers.forChain('defillama', name.trim().toLowerCase()),
  };
}

// DefiLlama names the origin of a bridged token by an abbreviation of the chain's key
// (`bridgedFromETH`, `bridgedFromSol`, `bridgedFromETH6Decimals`).
const ABBREVIATIONS: Record<string, string> = { eth: 'ethereum', sol: 'solana', arb: 'arbitrum' };

/** The chain key a `bridgedFrom…` kind names, e.g. `bridgedFromETH6Decimals` → `ethereum`. */
export function bridgedFromChain(kind: string): string | null {
  const m = /^bridgedFrom([A-Za-z]+?)(\d+Decimals)?$/.exec(kind);
  if (!m) return null;
  const key = m[1]!.toLowerCase();
  return ABBREVIATIONS[key] ?? key;
}
