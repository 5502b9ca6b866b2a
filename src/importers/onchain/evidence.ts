// The L1 evidence an RPC read becomes (SPEC: validation.evidence.technical, method rpc), written
// into the asset's document. The rpc entry for a ledger is replaced on every run; entries of other
// methods (an explorer page, an issuer record) are a person's evidence and are left as they are.
// A read that differs from the previous one in what it says about the token (code, symbol,
// decimals, implementation) moves the previous entry to validation.evidence.history, so a
// reviewer sees what the record rested on before.
import { isMap, isSeq, type Document, type YAMLMap } from 'yaml';
import { nodeFor } from '../shared/data-docs.ts';
import type { PinnedLedger } from './rpc.ts';
import type { TokenFacts } from './token.ts';

export interface RpcEvidence {
  ledger: string;
  contract_address: string;
  method: 'rpc';
  source: null;
  token_standard?: 'ERC-20';
  supply: number | null;
  as_of: string;
  chain_id: number;
  block_number: number;
  block_time: string;
  name?: string;
  symbol?: string;
  decimals?: number;
  code: boolean;
  implementation?: string;
}

export function rpcEvidence(pinned: PinnedLedger, address: string, facts: TokenFacts): RpcEvidence {
  const where = {
    as_of: pinned.blockDate,
    chain_id: pinned.chainId,
    block_number: Number(pinned.blockNumber),
    block_time: pinned.blockTime,
  };
  // Copied from the ledger entry as written: the evidence must name the same contract.
  const head = {
    ledger: pinned.ledger,
    contract_address: address,
    method: 'rpc' as const,
    source: null,
  };
  if (facts.code === false) return { ...head, supply: null, ...where, code: false };
  return {
    ...head,
    token_standard: 'ERC-20',
    supply: facts.supply,
    ...where,
    name: facts.name ?? '',
    symbol: facts.symbol ?? '',
    decimals: facts.decimals,
    code: true,
    ...(facts.implementation ? { implementation: facts.implementation } : {}),
  };
}

const PATH = ['validation', 'evidence', 'technical'] as const;
const HISTORY = ['validation', 'evidence', 'history'] as const;

const sameAddress = (a: unknown, b: string) =>
  typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

/** What a read says about the token; a change in it is kept in history. */
const identity = (e: Partial<RpcEvidence>) =>
  JSON.stringify([e.code ?? true, e.symbol, e.decimals, e.implementation?.toLowerCase()]);

function keepInHistory(doc: Document, previous: YAMLMap): void {
  const history = doc.getIn(HISTORY);
  const node = nodeFor(doc, previous.toJSON());
  if (isSeq(history) && history.items.length) history.items.push(node);
  else doc.setIn(HISTORY, nodeFor(doc, [previous.toJSON()]));
}

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
  if (at >= 0) {
    const previous = list.items[at] as YAMLMap;
    if (identity(previous.toJSON() as Partial<RpcEvidence>) !== identity(evidence))
      keepInHistory(doc, previous);
    list.items[at] = node;
  } else list.items.push(node);
}
