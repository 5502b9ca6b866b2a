// Which ledger entries of data/assets the on-ledger importer reads, and which it leaves manual
// (and why): only an EVM ledger with a contract address and an RPC endpoint can be read.
import { isMap, isSeq } from 'yaml';
import type { DataDoc } from '../shared/data-docs.ts';
import { EVM_CHAIN_IDS, rpcVariable } from './ledgers.ts';

export interface Target {
  file: DataDoc;
  tfin: string;
  ledger: string;
  address: string;
}

export interface Skipped {
  tfin: string;
  ledger: string;
  address: string;
  reason: string;
}

export interface Plan {
  /** Entries to read, grouped by ledger (one RPC endpoint and one block per ledger). */
  byLedger: Map<string, Target[]>;
  skipped: Skipped[];
}

export function planReads(
  assets: readonly DataDoc[],
  env: Record<string, string | undefined>,
): Plan {
  const byLedger = new Map<string, Target[]>();
  const skipped: Skipped[] = [];
  for (const file of assets) {
    const tfin = String(file.doc.get('tfin') ?? file.path);
    const ledgers = file.doc.get('ledgers');
    if (!isSeq(ledgers)) continue;
    for (const item of ledgers.items) {
      if (!isMap(item)) continue;
      const ledger = item.get('ledger');
      const address = item.get('contract_address');
      // An entry without an address has nothing to read (its null reason says why).
      if (typeof ledger !== 'string' || typeof address !== 'string') continue;
      const entry = { tfin, ledger, address };
      if (EVM_CHAIN_IDS[ledger] === undefined)
        skipped.push({ ...entry, reason: 'not an EVM ledger' });
      else if (!env[rpcVariable(ledger)])
        skipped.push({ ...entry, reason: `${rpcVariable(ledger)} is not set` });
      else byLedger.set(ledger, [...(byLedger.get(ledger) ?? []), { file, ...entry }]);
    }
  }
  return { byLedger, skipped };
}
