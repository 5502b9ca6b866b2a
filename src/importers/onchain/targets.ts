// Which ledger entries of data/assets the on-ledger importer reads, and which it leaves manual
// (and why): only an EVM ledger with a confirmed chain id (data/codes/ledgers.yaml), a contract
// address and an RPC endpoint can be read.
import { isMap, isSeq } from 'yaml';
import type { DataDoc } from '../shared/data-docs.ts';
import { LEDGERS_FILE, type Ledgers } from '../shared/ledgers.ts';
import { rpcVariable } from './ledgers.ts';

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
  /** The EIP-155 chain id each ledger of byLedger must report. */
  chainIds: Map<string, number>;
  skipped: Skipped[];
}

export function planReads(
  assets: readonly DataDoc[],
  env: Record<string, string | undefined>,
  table: Ledgers,
): Plan {
  const byLedger = new Map<string, Target[]>();
  const chainIds = new Map<string, number>();
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
      const chainId = table.evmChainId(ledger);
      const known = table.entry(ledger);
      if (!known) skipped.push({ ...entry, reason: `not in ${LEDGERS_FILE}` });
      else if (known.vm !== 'evm') skipped.push({ ...entry, reason: 'not an EVM ledger' });
      else if (chainId === undefined)
        skipped.push({ ...entry, reason: `no confirmed EIP-155 chain id in ${LEDGERS_FILE}` });
      else if (!env[rpcVariable(ledger)])
        skipped.push({ ...entry, reason: `${rpcVariable(ledger)} is not set` });
      else {
        byLedger.set(ledger, [...(byLedger.get(ledger) ?? []), { file, ...entry }]);
        chainIds.set(ledger, chainId);
      }
    }
  }
  return { byLedger, chainIds, skipped };
}
