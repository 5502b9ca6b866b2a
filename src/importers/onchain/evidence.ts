// The L1 evidence an RPC read becomes (SPEC: validation.evidence.technical, method rpc), written
// into the asset's document. The rpc entry for a ledger is replaced on every run; entries of other
// methods (an explorer page, an issuer record) are a person's evidence and are left as they are.
import { isMap, isSeq, type Document, type YAMLMap } from 'yaml';
import { nodeFor } from '../shared/data-docs.ts';
import type { PinnedLedger } from './rpc.ts';
import type { TokenFacts } from './token.ts';

export interface RpcEvidence {
  ledger: string;
  contract_address: string;
  method: 'rpc';
  source: null;
  token_standard: 'ERC-20';
  supply: number;
  as_of: string;
  chain_id: number;
  block_number: number;
  block_time: string;
  name: string;
  symbol: string;
  decimals: number;
}

export function rpcEvidence(
  pinned: PinnedLedger,
  address: string,
  facts: Required<TokenFacts>,
): RpcEvidence {
  return {
    ledger: pinned.ledger,
    // Copied from the ledger entry as written: the evidence must name the same contract.
    contract_address: address,
    method: 'rpc',
    source: null,
    token_standard: 'ERC-20',
    supply: facts.supply,
    as_of: pinned.blockDate,
    chain_id: pinned.chainId,
    block_number: Number(pinned.blockNumber),
    block_time: pinned.blockTime,
    name: facts.name,
    symbol: facts.symbol,
    decimals: facts.decimals,
  };
}

const PATH = ['validation', 'evidence', 'technical'] as const;

const sameAddress = (a: unknown, b: string) =>
  typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

/**
 * Puts `evidence` in place of the rpc entry for the same ledger and contract, or appends it. An rpc
 * entry whose contract is no longer any of the record's `ledgers` entries is dropped: it describes
 * a contract the record no longer names.
 */
export function writeEvidence(doc: Document, evidence: RpcEvidence, addresses: string[]): void {
  const list = doc.getIn(PATH);
  if (!isSeq(list) || list.items.length === 0) {
    doc.setIn(PATH, nodeFor(doc, [evidence]));
    return;
  }
  const isRpcFor = (item: unknown, ledger: string) =>
    isMap(item) && item.get('ledger') === ledger && item.get('method') === 'rpc';
  list.items = list.items.filter(
    (item) =>
      !isRpcFor(item, evidence.ledger) ||
      addresses.some((a) => sameAddress((item as YAMLMap).get('contract_address'), a)),
  );
  const node = nodeFor(doc, evidence);
  const at = list.items.findIndex(
    (item) =>
      isRpcFor(item, evidence.ledger) &&
      sameAddress((item as YAMLMap).get('contract_address'), evidence.contract_address),
  );
  if (at >= 0) list.items[at] = node;
  else list.items.push(node);
}
