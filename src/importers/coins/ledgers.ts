// DefiLlama chain keys → ledger codes, through the `aliases.defillama` of data/codes/ledgers.yaml.
// A chain without a code is reported by the importer, never guessed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ledgerTable } from '../../domain/codes.ts';

export interface LedgerLookup {
  codeFor(chain: string): string | undefined;
  /** Code → ledger name. */
  names: Map<string, string>;
}

export function readLedgerLookup(root: string): LedgerLookup {
  const table = ledgerTable.parse(
    parse(readFileSync(path.join(root, 'data/codes/ledgers.yaml'), 'utf8')),
  );
  const byAlias = new Map<string, string>();
  for (const l of table.ledgers)
    for (const alias of l.aliases?.['defillama'] ?? []) byAlias.set(alias, l.code);
  return {
    codeFor: (chain) => byAlias.get(chain),
    names: new Map(table.ledgers.map((l) => [l.code, l.name])),
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
