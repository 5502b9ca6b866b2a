// The ledgers of data/codes/ledgers.yaml that are EVM chains, with their EIP-155 chain ids. The
// chain id is how the importer knows an RPC endpoint serves the chain the record names: evidence
// read from another chain (a testnet, a fork, a mistyped URL) must never be recorded.
export const EVM_CHAIN_IDS: Readonly<Record<string, number>> = {
  ETH: 1, // Ethereum
  POL: 137, // Polygon PoS
  ARB: 42161, // Arbitrum One
  BAS: 8453, // Base
  OPT: 10, // OP Mainnet
  AVA: 43114, // Avalanche C-Chain
  BNB: 56, // BNB Smart Chain
  ETL: 42793, // Etherlink
  PLM: 98866, // Plume
  CLO: 42220, // Celo
};

/** The environment variable that gives a ledger's JSON-RPC endpoint, e.g. `RPC_URL_ETH`. */
export const rpcVariable = (ledger: string) => `RPC_URL_${ledger}`;
