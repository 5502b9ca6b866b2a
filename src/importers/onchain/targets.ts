// Which contracts the on-ledger importer reads, and which it leaves (and why): the ledger entries
// of data/assets and the deployments of data/stablecoins. Only an EVM ledger with a confirmed chain
// id (data/codes/ledgers.yaml), a contract address and an RPC endpoint can be read; other ledgers
// are listed with their virtual machine, whose RPC shape the importer does not read yet.
import { isMap, isSeq } from 'yaml';
import type { DataDoc } from '../shared/data-docs.ts';
import { LEDGERS_FILE, type Ledgers } from '../shared/ledgers.ts';
import { rpcVariable } from './ledgers.ts';

/** An asset's ledger entry (gets L1 evidence) or a coin's deployment (gets a dated supply). */
export type Owner = 'asset' | 'coin';

export interface Target {
  owner: Owner;
  file: DataDoc;
  /** The asset's TFIN or the coin's id. */
  id: string;
  ledger: string;
  address: string;
}

export interface Skipped {
  owner: Owner;
  id: string;
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

/** The entries of a file's list that name a ledger and a contract (others have nothing to read). */
function entriesOf(file: DataDoc, list: 'ledgers' | 'deployments') {
  const seq = file.doc.get(list);
  if (!isSeq(seq)) return [];
  return seq.items.flatMap((item) => {
    if (!isMap(item)) return [];
    const ledger = item.get('ledger');
    const address = item.get('contract_address');
    // An entry without an address has nothing to read (its null reason says why).
    return typeof ledger === 'string' && typeof address === 'string' ? [{ ledger, address }] : [];
  });
}

export function planReads(
  sources: { assets: readonly DataDoc[]; coins: readonly DataDoc[] },
  env: Record<string, string | undefined>,
  table: Ledgers,
): Plan {
  const byLedger = new Map<string, Target[]>();
  const chainIds = new Map<string, number>();
  const skipped: Skipped[] = [];
  const seen = new Set<string>();
  const consider = (owner: Owner, file: DataDoc, id: string, ledger: string, address: string) => {
    // A coin may list the same contract twice (issued, and bridged from elsewhere): read it once.
    const key = `${file.path}\n${ledger}\n${address.toLowerCase()}`;
    if (seen.has(key)) return;
    seen.add(key);
    const entry = { owner, id, ledger, address };
    const known = table.entry(ledger);
    const chainId = table.evmChainId(ledger);
    if (!known) skipped.push({ ...entry, reason: `not in ${LEDGERS_FILE}` });
    else if (known.vm !== 'evm')
      skipped.push({
        ...entry,
        reason: `not an EVM ledger (${known.vm ?? 'no public RPC'}: RPC shape not read yet)`,
      });
    else if (chainId === undefined)
      skipped.push({ ...entry, reason: `no confirmed EIP-155 chain id in ${LEDGERS_FILE}` });
    else if (!env[rpcVariable(ledger)])
      skipped.push({ ...entry, reason: `${rpcVariable(ledger)} is not set` });
    else {
      byLedger.set(ledger, [...(byLedger.get(ledger) ?? []), { file, ...entry }]);
      chainIds.set(ledger, chainId);
    }
  };
  for (const file of sources.assets) {
    const id = String(file.doc.get('tfin') ?? file.path);
    for (const e of entriesOf(file, 'ledgers')) consider('asset', file, id, e.ledger, e.address);
  }
  for (const file of sources.coins) {
    const id = String(file.doc.get('id') ?? file.path);
    for (const e of entriesOf(file, 'deployments')) consider('coin', file, id, e.ledger, e.address);
  }
  return { byLedger, chainIds, skipped };
}

/** The skipped entries as report lines: one per ledger and reason, naming every entry. */
export function skippedLines(skipped: readonly Skipped[]): string[] {
  const groups = new Map<string, Skipped[]>();
  for (const s of skipped) {
    const key = `${s.ledger}: ${s.reason}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  return [...groups]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([key, list]) =>
        `not read, ${key}: ${list.length} contract(s): ${list.map((s) => `${s.owner} ${s.id} ${s.address}`).join(', ')}`,
    );
}
