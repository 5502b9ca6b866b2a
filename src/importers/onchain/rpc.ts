// One ledger's JSON-RPC endpoint: checked to serve the chain the ledger code names, then pinned
// to ONE block (the latest when the import starts) at which every contract of that ledger is read,
// so the evidence of a run describes one consistent state of the chain. Requests made together
// go out as one JSON-RPC batch. An endpoint serving another chain stops the import (a
// misconfiguration); one that does not answer leaves its ledger unread and the others go on.
import { createPublicClient, http, type PublicClient } from 'viem';
import { ImportError } from '../shared/errors.ts';
import { rpcVariable } from './ledgers.ts';

export const DEFAULT_RPC_TIMEOUT_MS = 20_000;

export interface PinnedLedger {
  ledger: string;
  chainId: number;
  client: PublicClient;
  blockNumber: bigint;
  /** ISO 8601 UTC, whole seconds. */
  blockTime: string;
  /** YYYY-MM-DD of the block (UTC): the date the evidence describes. */
  blockDate: string;
}

/**
 * How an endpoint is named in messages: the variable and the URL's origin only. Hosted RPC URLs
 * carry their API key in the path (Infura, Alchemy…), and messages end up in CI logs.
 */
export function endpointLabel(ledger: string, url: string): string {
  let shown: string;
  try {
    const parsed = new URL(url);
    shown = `${parsed.origin}${parsed.pathname.length > 1 ? '/…' : ''}`;
  } catch {
    shown = 'not a URL';
  }
  return `${rpcVariable(ledger)} (${shown})`;
}

/**
 * viem's short message on one line with its detail (`fetch failed`, `The request took too
 * long…`), and a revert's reason string where the contract gave one.
 */
export function rpcReason(error: unknown): string {
  const e = error as { shortMessage?: string; details?: string; message?: string };
  let reason: string | undefined;
  let cause: unknown = error;
  while (cause && !reason) {
    reason = (cause as { reason?: string }).reason;
    cause = (cause as { cause?: unknown }).cause;
  }
  const short = (e.shortMessage ?? e.message ?? 'unknown error')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/[.:]\s*$/, '');
  const detail = (reason ?? e.details)?.replace(/\.$/, '');
  return detail && !short.includes(detail) ? `${short}: ${detail}` : short;
}

/** Requests per JSON-RPC batch (hosted endpoints commonly accept 100). */
const BATCH_SIZE = 100;

export type Pinning = { ok: true; pinned: PinnedLedger } | { ok: false; problem: string };

export async function pinLedger(
  ledger: string,
  expectedChainId: number,
  url: string,
  timeoutMs = DEFAULT_RPC_TIMEOUT_MS,
): Promise<Pinning> {
  const place = { input: endpointLabel(ledger, url) };
  const client = createPublicClient({
    transport: http(url, { timeout: timeoutMs, retryCount: 1, batch: { batchSize: BATCH_SIZE } }),
  });
  let chainId: number;
  try {
    chainId = await client.getChainId();
  } catch (error) {
    return {
      ok: false,
      problem: `${place.input}: did not answer eth_chainId (${rpcReason(error)}; timeout ${timeoutMs} ms)`,
    };
  }
  if (chainId !== expectedChainId)
    throw new ImportError(
      place,
      `serves chain id ${chainId}, but ${ledger} is chain id ${expectedChainId}`,
      `an endpoint of chain id ${expectedChainId}; nothing is recorded from another chain`,
    );
  try {
    const block = await client.getBlock({ blockTag: 'latest' });
    const blockTime = new Date(Number(block.timestamp) * 1000).toISOString().replace('.000Z', 'Z');
    return {
      ok: true,
      pinned: {
        ledger,
        chainId,
        client,
        blockNumber: block.number,
        blockTime,
        blockDate: blockTime.slice(0, 10),
      },
    };
  } catch (error) {
    return {
      ok: false,
      problem: `${place.input}: did not return its latest block (${rpcReason(error)})`,
    };
  }
}
