// npm run data:import -- coin-supply [--write]   (and the refresh, after `onchain`)
// Every coin's circulating supply from its ledgers: totalSupply of each `issued` deployment on an
// EVM ledger with an RPC_URL_<LEDGER> endpoint, read at one pinned block per ledger, less the
// balances of the issuer's own wallets (`issuer_wallets`: unreleased, reserves) in it; bridged
// deployments are left out. The sum is written as the coin's `ledger_circulating_supply` with
// every read (chain, block, time) and every issued deployment not read (and why); it is
// `complete` only when none is missing. The editor's `circulating_supply` is never touched.
// An endpoint of the wrong chain stops the import (nothing written), as in `onchain`.
import { isMap, isSeq, Pair, Scalar, type Document, type YAMLMap } from 'yaml';
import type { FileChange } from '../shared/changes.ts';
import type { ImportContext, ImportResult, Importer } from '../shared/importer.ts';
import { nodeFor, readDataDocs, renderDoc, type DataDoc } from '../shared/data-docs.ts';
import { readLedgers, type Ledgers } from '../shared/ledgers.ts';
import { readBalances } from './holdings.ts';
import { ledgerSum, type ContractRead, type NotRead } from './ledger-sum.ts';
import { rpcVariable } from './ledgers.ts';
import { DEFAULT_RPC_TIMEOUT_MS, pinLedger, type PinnedLedger } from './rpc.ts';
import { readTokens, type OnchainReads, type TokenRead } from './token.ts';

const FIELD = 'ledger_circulating_supply';

interface Issued {
  file: DataDoc;
  id: string;
  ledger: string;
  address: string;
}

interface Wallet {
  ledger: string;
  address: string;
  kind: 'unreleased' | 'reserves' | 'uncirculating';
}

const itemsOf = (doc: Document, key: string): YAMLMap[] => {
  const seq = doc.get(key);
  return isSeq(seq) ? seq.items.filter((i): i is YAMLMap => isMap(i)) : [];
};

/** Why an issued deployment on `ledger` cannot be read, in words for users; null when it can. */
function unreadable(ledger: string, table: Ledgers, env: ImportContext['env']): string | null {
  const entry = table.entry(ledger);
  if (!entry) return 'the ledger is not in the ledger code table';
  if (entry.vm !== 'evm')
    return `supply on ${entry.name} is not read from the ledger yet (only EVM ledgers are)`;
  if (table.evmChainId(ledger) === undefined)
    return `${entry.name} has no confirmed chain id, so no endpoint can be checked for it`;
  if (!env[rpcVariable(ledger)]) return `no endpoint for ${entry.name} was configured`;
  return null;
}

function timeoutOf(env: ImportContext['env']): number {
  const value = Number(env['RPC_TIMEOUT_MS'] ?? DEFAULT_RPC_TIMEOUT_MS);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_RPC_TIMEOUT_MS;
}

/** Puts the figure right after `circulating_supply` (or replaces it in place). */
function place(doc: Document, value: unknown): void {
  const map = doc.contents as YAMLMap;
  const node = nodeFor(doc, value);
  const at = map.items.findIndex((p) => (p.key as Scalar | undefined)?.value === FIELD);
  if (at >= 0) {
    map.items[at]!.value = node;
    return;
  }
  const after = map.items.findIndex(
    (p) => (p.key as Scalar | undefined)?.value === 'circulating_supply',
  );
  map.items.splice(after >= 0 ? after + 1 : map.items.length, 0, new Pair(new Scalar(FIELD), node));
}

const push = <T>(m: Map<DataDoc, T[]>, f: DataDoc, v: T) => m.set(f, [...(m.get(f) ?? []), v]);

/** What one run found per coin file: the contracts read, and those not read (and why). */
interface Found {
  reads: Map<DataDoc, ContractRead[]>;
  notRead: Map<DataDoc, NotRead[]>;
}

/**
 * The issued deployments of live coins that can be read, by ledger, and each coin's issuer
 * wallets; an issued deployment that cannot be read goes to `found.notRead` with the reason.
 */
function planIssued(
  files: readonly DataDoc[],
  table: Ledgers,
  env: ImportContext['env'],
  found: Found,
) {
  const wallets = new Map<DataDoc, Wallet[]>();
  const byLedger = new Map<string, Issued[]>();
  for (const file of files) {
    if (file.doc.getIn(['status', 'value']) !== 'live') continue;
    const id = String(file.doc.get('id'));
    wallets.set(
      file,
      itemsOf(file.doc, 'issuer_wallets').map((w) => ({
        ledger: String(w.get('ledger')),
        address: String(w.get('address')),
        kind: w.get('kind') as Wallet['kind'],
      })),
    );
    const seen = new Set<string>();
    for (const d of itemsOf(file.doc, 'deployments')) {
      if (d.get('kind') !== 'issued') continue;
      const ledger = String(d.get('ledger'));
      const address = d.get('contract_address');
      if (typeof address !== 'string') {
        push(found.notRead, file, {
          ledger,
          contract_address: null,
          reason: `no contract address is known${d.get('contract_address_null_reason') ? `: ${String(d.get('contract_address_null_reason'))}` : ''}`,
        });
        continue;
      }
      // A contract listed twice as issued on one ledger is one contract: counted once.
      const key = `${ledger}\n${address.toLowerCase()}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const why = unreadable(ledger, table, env);
      if (why) push(found.notRead, file, { ledger, contract_address: address, reason: why });
      else byLedger.set(ledger, [...(byLedger.get(ledger) ?? []), { file, id, ledger, address }]);
    }
  }
  return { wallets, byLedger };
}

/**
 * Each issued contract's decimals and totalSupply at the pinned block: taken from the reads made
 * earlier in the run at that block where there are some, read now for the others.
 */
async function supplyReads(
  at: PinnedLedger,
  targets: readonly Issued[],
  earlier: OnchainReads | undefined,
): Promise<TokenRead[]> {
  const kept = targets.map((t) =>
    earlier?.pinned(at.ledger) === at ? earlier.coin(at.ledger, t.address) : undefined,
  );
  const unread = targets.filter((_, i) => !kept[i]);
  const fresh = unread.length
    ? (
        await readTokens(
          at,
          unread.map((t) => ({ owner: 'coin' as const, address: t.address })),
        )
      ).reads
    : [];
  let next = 0;
  return kept.map((facts) => (facts ? { ok: true, facts } : fresh[next++]!));
}

/**
 * One pinned ledger: each issued contract's totalSupply less the balances of its coin's issuer
 * wallets there. A contract whose supply or a wallet's balance cannot be read is not read.
 */
async function readLedger(
  at: PinnedLedger,
  targets: readonly Issued[],
  wallets: ReadonlyMap<DataDoc, Wallet[]>,
  found: Found,
  report: string[],
  earlier: OnchainReads | undefined,
): Promise<void> {
  const { ledger } = at;
  const facts = await supplyReads(at, targets, earlier);
  report.push(
    `${ledger}: chain id ${at.chainId}, block ${at.blockNumber} (${at.blockTime}), ${targets.length} issued contract(s)`,
  );
  const asks = targets.flatMap((t, i) => {
    const read = facts[i]!;
    if (!read.ok) return [];
    return (wallets.get(t.file) ?? [])
      .filter((w) => w.ledger === ledger)
      .map((w) => ({
        i,
        held: w,
        wallet: w.address,
        token: t.address,
        decimals: read.facts.decimals,
      }));
  });
  const balances = await readBalances(at, asks);
  targets.forEach((t, i) => {
    const read = facts[i]!;
    if (!read.ok) {
      report.push(`  coin ${t.id} ${ledger} ${t.address}: PROBLEM: ${read.problem}`);
      push(found.notRead, t.file, {
        ledger,
        contract_address: t.address,
        reason: `the contract ${read.problem}`,
      });
      return;
    }
    const mine = asks.flatMap((a, k) => (a.i === i ? [{ a, b: balances[k]! }] : []));
    const failed = mine.find((m) => !m.b.ok);
    if (failed && !failed.b.ok) {
      report.push(`  coin ${t.id} ${ledger} ${t.address}: PROBLEM: ${failed.b.problem}`);
      push(found.notRead, t.file, {
        ledger,
        contract_address: t.address,
        reason: `the issuer's wallet balance could not be subtracted: ${failed.b.problem}`,
      });
      return;
    }
    push(found.reads, t.file, {
      ledger,
      contract_address: t.address,
      chain_id: at.chainId,
      block_number: Number(at.blockNumber),
      block_time: at.blockTime,
      total_supply: read.facts.supply,
      issuer_held: mine.map(({ a, b }) => ({
        address: a.held.address,
        kind: a.held.kind,
        balance: b.ok ? b.balance : 0,
      })),
    });
  });
}

/**
 * Each coin's ledger sum, as a change where it differs from the one recorded; a coin with nothing
 * read, or with a sum recorded from a later block, keeps the recorded one (said in the report).
 */
function sumChanges(files: readonly DataDoc[], found: Found, report: string[]): FileChange[] {
  const changes: FileChange[] = [];
  for (const file of files) {
    const sum = ledgerSum(found.reads.get(file) ?? [], found.notRead.get(file) ?? []);
    const id = String(file.doc.get('id'));
    if (!sum) {
      // Nothing read this time: a sum recorded earlier stays, with its own date and blocks.
      if (file.doc.has(FIELD))
        report.push(`coin ${id}: no issued deployment read; the recorded ledger sum is kept`);
      continue;
    }
    const previous = (file.doc.get(FIELD, true) as { toJSON(): unknown } | undefined)?.toJSON() as
      { reads?: { chain_id: number; block_number: number }[] } | undefined;
    const later = previous?.reads?.find((p) =>
      sum.reads.some((r) => r.chain_id === p.chain_id && p.block_number > r.block_number),
    );
    if (later) {
      report.push(
        `coin ${id}: REVIEW: the recorded ledger sum is from a later block (${later.block_number}) of chain ${later.chain_id}; kept`,
      );
      continue;
    }
    const line = `coin ${id}: ledger sum ${sum.value} on ${sum.as_of} (${sum.reads.length} issued contract(s) read${sum.complete ? ', complete' : `, ${sum.not_read.length} not read: partial`})`;
    if (JSON.stringify(previous) === JSON.stringify(sum)) {
      report.push(`${line}, as recorded`);
      continue;
    }
    place(file.doc, sum);
    report.push(line);
    changes.push({ path: file.path, after: renderDoc(file) });
  }
  return changes;
}

async function run({ root, env, ...context }: ImportContext): Promise<ImportResult> {
  // Filled by onchain earlier in the run, with onchain's types (the context holds it untyped).
  const ledgerReads = context.ledgerReads as OnchainReads | undefined;
  const table = readLedgers(root);
  const files = readDataDocs(root, 'data/stablecoins');
  const report: string[] = [];
  const found: Found = { reads: new Map(), notRead: new Map() };
  const { wallets, byLedger } = planIssued(files, table, env, found);

  // Every endpoint is checked (chain id, block) before any contract is read.
  const pinned = await Promise.all(
    [...byLedger]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(async ([ledger, targets]) => ({
        ledger,
        targets,
        // A ledger pinned earlier in the run is read at the same block.
        pinning: ledgerReads?.pinned(ledger)
          ? ({ ok: true, pinned: ledgerReads.pinned(ledger)! } as const)
          : await pinLedger(
              ledger,
              table.evmChainId(ledger)!,
              env[rpcVariable(ledger)]!,
              timeoutOf(env),
            ),
      })),
  );
  for (const { ledger, targets, pinning } of pinned) {
    if (!pinning.ok) {
      report.push(`${ledger}: NOT READ: ${pinning.problem}`);
      for (const t of targets)
        push(found.notRead, t.file, {
          ledger,
          contract_address: t.address,
          reason: `the ledger's endpoint did not answer at the refresh`,
        });
      continue;
    }
    await readLedger(pinning.pinned, targets, wallets, found, report, ledgerReads);
  }

  const changes = sumChanges(files, found, report);
  if (!byLedger.size) report.push('no ledger was read: set RPC_URL_<LEDGER> (e.g. RPC_URL_ETH)');
  return { changes, report };
}

export const coinSupplyImporter: Importer = {
  name: 'coin-supply',
  summary:
    "read over RPC: each coin's circulating supply from its ledgers (issued deployments' totalSupply less issuer-held balances)",
  needsInput: false,
  run,
};
