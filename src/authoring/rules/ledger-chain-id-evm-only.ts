// The rule `ledger-chain-id-evm-only` (npm run data:check): an EIP-155 chain id exists only for
// an EVM chain; on another ledger it would send the on-ledger importer to read it as one.
import { ledgerTableRule } from './rule.ts';

export const ledgerChainIdEvmOnly = ledgerTableRule('ledger-chain-id-evm-only', (ledgers, report) =>
  ledgers.forEach((l, i) => {
    if (l.chain_id != null && l.vm !== 'evm')
      report(
        [i, 'chain_id'],
        `is set, but ${l.code} is ${l.vm ? `vm: ${l.vm}` : 'not marked vm: evm'}`,
        'an EIP-155 chain id belongs to an EVM chain only: remove chain_id, or set vm: evm if the ledger is one',
      );
  }),
);
