// How the on-ledger importer names a ledger's endpoint. Which ledgers are EVM chains, and their
// EIP-155 chain ids, come from data/codes/ledgers.yaml (src/importers/shared/ledgers.ts): the chain
// id is how the importer knows an RPC endpoint serves the chain the record names, so evidence read
// from another chain (a testnet, a fork, a mistyped URL) is never recorded.

/** The environment variable that gives a ledger's JSON-RPC endpoint, e.g. `RPC_URL_ETH`. */
export const rpcVariable = (ledger: string) => `RPC_URL_${ledger}`;
