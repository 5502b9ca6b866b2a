// The dated supply an RPC read becomes on a coin's deployment (data/stablecoins/<id>.yaml,
// deployments[].supply): totalSupply at one block, with the chain, block number and block time it
// was read at. A read never replaces a supply recorded at a later block of the same chain.
import { isMap, isSeq, type Document } from 'yaml';
import { nodeFor } from '../shared/data-docs.ts';
import type { PinnedLedger } from './rpc.ts';
import type { TokenFacts } from './token.ts';

export interface DeploymentSupply {
  kind: 'total_supply';
  value: number;
  as_of: string;
  chain_id: number;
  block_number: number;
  block_time: string;
  decimals: number;
}

export function deploymentSupply(pinned: PinnedLedger, facts: TokenFacts): DeploymentSupply {
  return {
    kind: 'total_supply',
    value: facts.supply,
    as_of: pinned.blockDate,
    chain_id: pinned.chainId,
    block_number: Number(pinned.blockNumber),
    block_time: pinned.blockTime,
    decimals: facts.decimals,
  };
}

export type SupplyWrite = 'written' | 'unchanged' | { kept: string };

const same = (a: Partial<DeploymentSupply> | undefined, b: DeploymentSupply) =>
  a !== undefined && (Object.keys(b) as (keyof DeploymentSupply)[]).every((k) => a[k] === b[k]);

/** Sets the supply on every deployment of `ledger` naming `address` (case-insensitive). */
export function writeSupply(
  doc: Document,
  ledger: string,
  address: string,
  supply: DeploymentSupply,
): SupplyWrite {
  const list = doc.get('deployments');
  if (!isSeq(list)) return 'unchanged';
  let outcome: SupplyWrite = 'unchanged';
  for (const item of list.items) {
    if (!isMap(item) || item.get('ledger') !== ledger) continue;
    const at = item.get('contract_address');
    if (typeof at !== 'string' || at.toLowerCase() !== address.toLowerCase()) continue;
    const node = item.get('supply', true) as { toJSON(): unknown } | undefined;
    const previous = node?.toJSON() as Partial<DeploymentSupply> | undefined;
    if (same(previous, supply)) continue;
    if (
      previous?.chain_id === supply.chain_id &&
      typeof previous.block_number === 'number' &&
      previous.block_number > supply.block_number
    )
      return {
        kept: `the recorded supply is from a later block (${previous.block_number}) than the one read (${supply.block_number}); kept`,
      };
    item.set('supply', nodeFor(doc, supply));
    outcome = 'written';
  }
  return outcome;
}
