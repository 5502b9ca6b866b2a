// The ERC-20 facts of one contract at the pinned block: code present, name, symbol, decimals and
// totalSupply. Anything short of all five is a problem for that contract, and nothing is written
// for it: partial evidence would let a record claim L1 for a contract nobody could read.
import { erc20Abi, formatUnits, isAddress, type Address } from 'viem';
import { rpcReason, type PinnedLedger } from './rpc.ts';

export interface TokenFacts {
  name: string;
  symbol: string;
  decimals: number;
  /** totalSupply / 10^decimals. */
  supply: number;
}

export type TokenRead = { ok: true; facts: TokenFacts } | { ok: false; problem: string };

const fail = (problem: string): TokenRead => ({ ok: false, problem });

export async function readToken(pinned: PinnedLedger, address: string): Promise<TokenRead> {
  // Strict: a mixed-case address whose EIP-55 checksum fails is a typo, not a contract to read.
  if (!isAddress(address, { strict: true }))
    return fail(
      'is not an EVM address (0x and 40 hex digits, with a valid EIP-55 checksum if mixed-case)',
    );
  const { client, blockNumber } = pinned;
  let code: string | undefined;
  try {
    code = await client.getCode({ address, blockNumber });
  } catch (error) {
    return fail(`eth_getCode failed (${rpcReason(error)})`);
  }
  if (!code || code === '0x') return fail(`has no contract code at block ${blockNumber}`);

  const call = <F extends 'name' | 'symbol' | 'decimals' | 'totalSupply'>(functionName: F) =>
    client.readContract({ address: address as Address, abi: erc20Abi, functionName, blockNumber });
  const names = ['name', 'symbol', 'decimals', 'totalSupply'] as const;
  const results = await Promise.allSettled(names.map((n) => call(n)));
  const failed = results.findIndex((r) => r.status === 'rejected');
  if (failed >= 0)
    return fail(
      `${names[failed]}() failed at block ${blockNumber} (${rpcReason((results[failed] as PromiseRejectedResult).reason)})`,
    );
  const [name, symbol, decimals, totalSupply] = results.map(
    (r) => (r as PromiseFulfilledResult<unknown>).value,
  ) as [string, string, number, bigint];
  return {
    ok: true,
    facts: { name, symbol, decimals, supply: Number(formatUnits(totalSupply, decimals)) },
  };
}
