// The rule `ledger-chain-ids-unique` (npm run data:check): an EIP-155 chain id belongs to one
// chain, so an endpoint's id can only confirm one ledger.
import { ledgerTableRule, reportRepeats } from './rule.ts';

export const ledgerChainIdsUnique = ledgerTableRule('ledger-chain-ids-unique', (ledgers, report) =>
  reportRepeats(
    ledgers,
    (l) => (typeof l.chain_id === 'number' ? [[String(l.chain_id), ['chain_id']]] : []),
    (id, first) => `chain id ${id} is already ${first.code}'s (${first.name})`,
    "one chain id per chain: check the id in DefiLlama's SDK mapping or ethereum-lists/chains, or merge the two entries",
    report,
  ),
);
