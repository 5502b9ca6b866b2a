// npm run data:import -- onchain [--write]
// Read from the ledgers themselves, for every EVM ledger entry of data/assets and every EVM
// deployment of data/stablecoins with a contract address and an RPC_URL_<LEDGER> endpoint:
// decimals and totalSupply (and, for assets, name and symbol) at one pinned block per ledger,
// batched. Assets get L1 technical evidence; coins get a dated supply on the deployment.
// An endpoint of the wrong chain stops the import (nothing written). A ledger that does not
// answer, or a contract that cannot be read, keeps its recorded values and is named in the report;
// ledgers that cannot be read (no endpoint, not EVM) are listed with the reason.
// An asset's read is compared with the record (shared/levels.ts, dataset/validation-level.ts): code
// present, symbol and decimals as stated promote it to L1; no code, another symbol or other
// decimals demote it to unverified; both are named in the report (PROMOTED/DEMOTED) for review.
import { isMap, isSeq, type YAMLMap } from 'yaml';
import type { FileChange } from '../shared/changes.ts';
import type { ImportContext, ImportResult, Importer, LedgerCoverage } from '../shared/importer.ts';
import { readDataDocs, renderDoc, type DataDoc } from '../shared/data-docs.ts';
import { readLedgers } from '../shared/ledgers.ts';
import { rpcEvidence, writeEvidence } from './evidence.ts';
import { rpcVariable } from './ledgers.ts';
import { DEFAULT_RPC_TIMEOUT_MS, pinLedger, type PinnedLedger } from './rpc.ts';
import { deploymentSupply, writeSupply } from './supply.ts';
import { planReads, skippedLines, type Target } from './targets.ts';
import { readTokens, type OnchainReads, type TokenFacts, type TokenRead } from './token.ts';
import {
  ASSET_DIRS,
  datasetDateOf,
  evidenceMaxAge,
  levelInputOf,
  levelLine,
  programmesOf,
  settleLevel,
} from '../shared/levels.ts';
import { standingOf } from '../../dataset/validation-level.ts';
import type { TechnicalEvidence } from '../../domain/asset.ts';

/**
 * Decimals recorded at the first read that confirms the contract (its symbol as stated): a later
 * read with other decimals then contradicts the record. A read that confirms nothing records nothing.
 */
function recordDecimals(file: DataDoc, programmes: ReadonlyMap<string, DataDoc>): void {
  const input = levelInputOf(file, programmes);
  const ledgers = file.doc.get('ledgers');
  if (!isSeq(ledgers)) return;
  for (const e of (input.validation.evidence?.technical ?? []) as TechnicalEvidence[]) {
    if (e.method !== 'rpc' || e.decimals === undefined) continue;
    if (
      standingOf(e, input, { rpc: Infinity, explorer: 0, issuer_record: 0, csd_record: 0 }, e.as_of)
        .standing !== 'confirms'
    )
      continue;
    const entry = ledgers.items.find(
      (item): item is YAMLMap =>
        isMap(item) &&
        item.get('ledger') === e.ledger &&
        String(item.get('contract_address')).toLowerCase() ===
          String(e.contract_address).toLowerCase(),
    );
    if (entry && entry.get('decimals') === undefined) entry.set('decimals', e.decimals);
  }
}

/** RPC_TIMEOUT_MS bounds every RPC call (hosted endpoints can hang rather than fail). */
function timeoutOf(env: ImportContext['env']): number {
  const value = Number(env['RPC_TIMEOUT_MS'] ?? DEFAULT_RPC_TIMEOUT_MS);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_RPC_TIMEOUT_MS;
}

const addressesOn = (file: DataDoc, ledger: string, all: readonly Target[]) =>
  all.filter((t) => t.file === file && t.ledger === ledger).map((t) => t.address);

const label = (t: Target) => `  ${t.owner} ${t.id} ${t.ledger} ${t.address}`;

/** Writes one read; returns its report line and whether the file changed. */
function record(pinned: PinnedLedger, target: Target, facts: TokenFacts, all: readonly Target[]) {
  const at = label(target);
  if (target.owner === 'asset') {
    const evidence = rpcEvidence(pinned, target.address, facts);
    writeEvidence(target.file.doc, evidence, addressesOn(target.file, target.ledger, all));
    if (facts.code === false)
      return { line: `${at}: no contract code at block ${pinned.blockNumber}`, edited: true };
    const proxy = facts.implementation
      ? `, through the EIP-1967 proxy to ${facts.implementation}`
      : '';
    return {
      line: `${at}: ${facts.name} (${facts.symbol}), ${facts.decimals} decimals, total supply ${facts.supply}${proxy}`,
      edited: true,
    };
  }
  const written = writeSupply(
    target.file.doc,
    target.ledger,
    target.address,
    deploymentSupply(pinned, facts),
  );
  if (typeof written === 'object')
    return { line: `${at}: REVIEW: ${written.kept}`, edited: false, problem: true };
  return {
    line: `${at}: total supply ${facts.supply} (${facts.decimals} decimals)${written === 'unchanged' ? ', as recorded' : ''}`,
    edited: written === 'written',
  };
}

/** Passes on the coin contracts read at this ledger's block, for `coin-supply` in the same run. */
function keepCoinReads(
  ledgerReads: OnchainReads | undefined,
  pinned: PinnedLedger,
  targets: readonly Target[],
  reads: readonly TokenRead[],
): void {
  ledgerReads?.keep(
    pinned,
    targets.flatMap((t, i) => {
      const read = reads[i]!;
      return t.owner === 'coin' && read.ok ? [{ address: t.address, facts: read.facts }] : [];
    }),
  );
}

async function run({ root, env, today, ...context }: ImportContext): Promise<ImportResult> {
  // Filled here for coin-supply, later in the run (the context holds it untyped).
  const ledgerReads = context.ledgerReads as OnchainReads | undefined;
  const assetFiles = ASSET_DIRS.flatMap((dir) => readDataDocs(root, dir));
  const plan = planReads(
    { assets: assetFiles, coins: readDataDocs(root, 'data/stablecoins') },
    env,
    readLedgers(root),
  );
  const report: string[] = [];
  const unread: string[] = [];
  const edited = new Set<DataDoc>();
  const coverage: LedgerCoverage[] = [];

  // Every endpoint is checked (chain id, block) before any contract is read: an endpoint of
  // another chain stops the run before anything is reported or written.
  const pinned = await Promise.all(
    [...plan.byLedger]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(async ([ledger, targets]) => ({
        targets,
        pinning: await pinLedger(
          ledger,
          plan.chainIds.get(ledger)!,
          env[rpcVariable(ledger)]!,
          timeoutOf(env),
        ),
      })),
  );

  for (const { targets, pinning } of pinned) {
    const ledger = targets[0]!.ledger;
    if (!pinning.ok) {
      report.push(`${ledger}: NOT READ: ${pinning.problem}; recorded values kept`);
      for (const t of targets) unread.push(label(t));
      coverage.push({ ledger, contracts: targets.length, read: 0, problem: pinning.problem });
      continue;
    }
    const ledgerState = pinning.pinned;
    const { via, reads } = await readTokens(ledgerState, targets);
    keepCoinReads(ledgerReads, ledgerState, targets, reads);
    report.push(
      `${ledger}: chain id ${ledgerState.chainId}, block ${ledgerState.blockNumber} (${ledgerState.blockTime}), ${targets.length} contract(s), read with ${via}`,
    );
    // A node where no contract of the data has code is empty, unsynced or of another network in
    // all but chain id: its "no code" answers say nothing about the records, so nothing is read.
    if (reads.some((r) => r.ok) && reads.every((r) => !r.ok || r.facts.code === false)) {
      report.push(
        `${ledger}: not read: none of ${targets.length} contract(s) has code at block ${ledgerState.blockNumber} (an empty or unsynced node); nothing written`,
      );
      unread.push(...targets.map(label));
      coverage.push({
        ledger,
        contracts: targets.length,
        read: 0,
        problem: 'no contract has code at the block (an empty or unsynced node)',
      });
      continue;
    }
    targets.forEach((target, i) => {
      const read = reads[i]!;
      if (!read.ok) {
        report.push(`${label(target)}: PROBLEM: ${read.problem}; nothing written`);
        unread.push(label(target));
        return;
      }
      const outcome = record(ledgerState, target, read.facts, targets);
      report.push(outcome.line);
      if (outcome.problem) unread.push(label(target));
      if (outcome.edited) edited.add(target.file);
    });
    coverage.push({ ledger, contracts: targets.length, read: reads.filter((r) => r.ok).length });
  }
  // The level follows the evidence: each asset read is compared with what the record states, and
  // the record's level set by the methodology's rule; a change is named for review.
  const programmes = programmesOf(assetFiles);
  const maxAge = evidenceMaxAge(root);
  const date = datasetDateOf(root, today);
  const levels: string[] = [];
  for (const file of [...edited].filter((f) => f.path.startsWith('data/assets/'))) {
    recordDecimals(file, programmes);
    const settled = settleLevel(file, programmes, maxAge, date);
    if (settled) levels.push(levelLine(String(file.doc.get('tfin')), settled));
  }
  if (levels.length)
    report.push(`validation levels changed: ${levels.length} record(s)`, ...levels);
  report.push(...skippedLines(plan.skipped));
  if (!plan.byLedger.size)
    report.push('no ledger was read: set RPC_URL_<LEDGER> (e.g. RPC_URL_ETH)');
  if (unread.length)
    report.push(
      `not read, kept as recorded and listed for review: ${unread.length} contract(s)`,
      ...unread,
    );

  const changes: FileChange[] = [...edited].map((f) => ({ path: f.path, after: renderDoc(f) }));
  return { changes, report, ledgers: coverage };
}

export const onchainImporter: Importer = {
  name: 'onchain',
  summary:
    'read over RPC: decimals and totalSupply of EVM contracts (asset L1 evidence, coin deployment supply)',
  needsInput: false,
  run,
};
