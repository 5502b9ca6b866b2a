// The ERC-20 facts of every contract of one ledger at its pinned block: code present, then
// decimals and totalSupply (and name and symbol for an asset's L1 evidence). The calls go through
// Multicall3 where the chain has it at its canonical address at that block, else as batched
// JSON-RPC requests. Anything short of every fact is a problem for that contract, and nothing is
// written for it: a partial read would let a record claim a supply nobody could read.
import { erc20Abi, formatUnits, getAddress, isAddress, type Address } from 'viem';
import { rpcReason, type PinnedLedger } from './rpc.ts';
import type { Owner } from './targets.ts';
import type { LedgerReads } from '../shared/ledger-reads.ts';

/** EIP-1967's implementation slot: bytes32(uint256(keccak256('eip1967.proxy.implementation')) - 1). */
export const EIP1967_IMPLEMENTATION_SLOT =
  '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc' as const;

/** Multicall3's address on every chain it is deployed to (github.com/mds1/multicall). */
export const MULTICALL3: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

/** The refresh's ledger reads as onchain fills them and coin-supply uses them. */
export type OnchainReads = LedgerReads<PinnedLedger, TokenFacts>;

export interface TokenFacts {
  /** False when the address holds no code at the block (an asset's read then has nothing else). */
  code?: boolean;
  /** The EIP-1967 implementation behind a proxy (assets only); the calls go through the proxy. */
  implementation?: Address;
  /** Read for assets only (their L1 evidence names the token). */
  name?: string;
  symbol?: string;
  decimals: number;
  /** totalSupply / 10^decimals. */
  supply: number;
}

export type TokenRead = { ok: true; facts: TokenFacts } | { ok: false; problem: string };

export interface LedgerRead {
  via: 'multicall3' | 'batched JSON-RPC';
  /** One per contract asked for, in the same order. */
  reads: TokenRead[];
}

const fail = (problem: string): TokenRead => ({ ok: false, problem });

const FUNCTIONS: Record<Owner, readonly ('name' | 'symbol' | 'decimals' | 'totalSupply')[]> = {
  asset: ['name', 'symbol', 'decimals', 'totalSupply'],
  coin: ['decimals', 'totalSupply'],
};

type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Every call's outcome; one failing call never hides another's answer. */
async function callAll(
  pinned: PinnedLedger,
  calls: { address: Address; functionName: (typeof FUNCTIONS)['asset'][number] }[],
  multicall: boolean,
): Promise<Settled[]> {
  const { client, blockNumber } = pinned;
  const contracts = calls.map((c) => ({ ...c, abi: erc20Abi }));
  if (multicall) {
    const results = await client.multicall({
      contracts,
      allowFailure: true,
      blockNumber,
      multicallAddress: MULTICALL3,
    });
    return results.map((r) =>
      r.status === 'success' ? { ok: true, value: r.result } : { ok: false, error: r.error },
    );
  }
  const settled = await Promise.allSettled(
    contracts.map((c) => client.readContract({ ...c, blockNumber })),
  );
  return settled.map((s) =>
    s.status === 'fulfilled' ? { ok: true, value: s.value } : { ok: false, error: s.reason },
  );
}

/**
 * The EIP-1967 implementation of each address given (null where none is set or nothing is asked;
 * false where the slot could not be read): a proxy's calls were answered by that code.
 */
async function implementationsOf(
  pinned: PinnedLedger,
  addresses: readonly (string | null)[],
): Promise<(Address | null | false)[]> {
  const { client, blockNumber } = pinned;
  return Promise.all(
    addresses.map(async (address) => {
      if (!address) return null;
      try {
        const slot = await client.getStorageAt({
          address: address as Address,
          slot: EIP1967_IMPLEMENTATION_SLOT,
          blockNumber,
        });
        const word = BigInt(slot ?? '0x0');
        return word === 0n ? null : getAddress(`0x${word.toString(16).padStart(40, '0')}`);
      } catch {
        return false;
      }
    }),
  );
}

export async function readTokens(
  pinned: PinnedLedger,
  targets: readonly { owner: Owner; address: string }[],
): Promise<LedgerRead> {
  const { client, blockNumber } = pinned;
  const reads: (TokenRead | undefined)[] = targets.map(({ address }) =>
    // Strict: a mixed-case address whose EIP-55 checksum fails is a typo, not a contract to read.
    isAddress(address, { strict: true })
      ? undefined
      : fail(
          'is not an EVM address (0x and 40 hex digits, with a valid EIP-55 checksum if mixed-case)',
        ),
  );
  const code = (address: string) =>
    client.getCode({ address: address as Address, blockNumber }).then(
      (c): Settled => ({ ok: true, value: c }),
      (error: unknown): Settled => ({ ok: false, error }),
    );
  const [hub, ...codes] = await Promise.all([
    code(MULTICALL3),
    ...targets.map((t, i) => (reads[i] ? null : code(t.address))),
  ]);
  const multicall = hub!.ok && typeof hub!.value === 'string' && hub!.value !== '0x';
  const calls: {
    at: number;
    address: Address;
    functionName: (typeof FUNCTIONS)['asset'][number];
  }[] = [];
  targets.forEach((t, i) => {
    if (reads[i]) return;
    const got = codes[i]!;
    if (!got.ok) reads[i] = fail(`eth_getCode failed (${rpcReason(got.error)})`);
    else if (!got.value || got.value === '0x')
      // For an asset, no code is a fact about the record (a wrong address or chain): it is recorded
      // and contradicts the record. A coin's deployment keeps its supply and is listed for review.
      reads[i] =
        t.owner === 'asset'
          ? { ok: true, facts: { code: false, decimals: 0, supply: 0 } }
          : fail(`has no contract code at block ${blockNumber}`);
    else
      for (const functionName of FUNCTIONS[t.owner])
        calls.push({ at: i, address: t.address as Address, functionName });
  });

  let outcomes: Settled[];
  try {
    outcomes = calls.length ? await callAll(pinned, calls, multicall) : [];
  } catch (error) {
    // The multicall itself failed (the node stopped answering): no contract of it was read.
    const problem = fail(`Multicall3 call failed at block ${blockNumber} (${rpcReason(error)})`);
    outcomes = [];
    for (const c of calls) reads[c.at] ??= problem;
  }
  const values = new Map<number, Record<string, unknown>>();
  outcomes.forEach((outcome, n) => {
    const { at, functionName } = calls[n]!;
    if (reads[at]) return;
    if (!outcome.ok)
      reads[at] = fail(
        `${functionName}() failed at block ${blockNumber} (${rpcReason(outcome.error)})`,
      );
    else values.set(at, { ...values.get(at), [functionName]: outcome.value });
  });
  const implementations = await implementationsOf(
    pinned,
    targets.map((t, i) => (t.owner === 'asset' && !reads[i] && values.has(i) ? t.address : null)),
  );
  for (const [at, v] of values) {
    if (reads[at]) continue;
    const decimals = Number(v['decimals']);
    const implementation = implementations[at];
    if (implementation === false) {
      reads[at] = fail(
        `the EIP-1967 implementation slot could not be read at block ${blockNumber}`,
      );
      continue;
    }
    reads[at] = {
      ok: true,
      facts: {
        ...(targets[at]!.owner === 'asset' ? { code: true } : {}),
        ...(implementation ? { implementation } : {}),
        ...(v['name'] === undefined ? {} : { name: String(v['name']) }),
        ...(v['symbol'] === undefined ? {} : { symbol: String(v['symbol']) }),
        decimals,
        supply: Number(formatUnits(v['totalSupply'] as bigint, decimals)),
      },
    };
  }
  return {
    via: multicall ? 'multicall3' : 'batched JSON-RPC',
    reads: reads.map((r) => r ?? fail('was not answered')),
  };
}
