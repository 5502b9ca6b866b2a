// The issuer's own balances of a token at a ledger's pinned block (balanceOf of each wallet the
// contract list types as unreleased or reserves), subtracted from the coin's ledger sum. The calls
// of one ledger go out together (viem batches them into JSON-RPC batches); one failing balance
// never hides another's answer.
import { erc20Abi, formatUnits, isAddress, type Address } from 'viem';
import { rpcReason, type PinnedLedger } from './rpc.ts';

export interface BalanceAsk {
  token: string;
  wallet: string;
  decimals: number;
}

export type BalanceRead = { ok: true; balance: number } | { ok: false; problem: string };

export async function readBalances(
  pinned: PinnedLedger,
  asks: readonly BalanceAsk[],
): Promise<BalanceRead[]> {
  const { client, blockNumber } = pinned;
  return Promise.all(
    asks.map(async ({ token, wallet, decimals }): Promise<BalanceRead> => {
      if (!isAddress(wallet, { strict: false }))
        return { ok: false, problem: `the wallet ${wallet} is not an EVM address` };
      try {
        const raw = await client.readContract({
          address: token as Address,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [wallet.toLowerCase() as Address],
          blockNumber,
        });
        return { ok: true, balance: Number(formatUnits(raw, decimals)) };
      } catch (error) {
        return {
          ok: false,
          problem: `balanceOf(${wallet}) failed at block ${blockNumber} (${rpcReason(error)})`,
        };
      }
    }),
  );
}
