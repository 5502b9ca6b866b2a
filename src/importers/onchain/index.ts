// npm run data:import -- onchain [--write]
// L1 technical evidence read from the ledgers themselves: for every EVM ledger entry of
// data/assets with a contract address and an RPC_URL_<LEDGER> endpoint, the contract's code,
// name, symbol, decimals and totalSupply at one pinned block per ledger. A wrong chain or an
// unreachable endpoint stops the import (nothing written); a contract that cannot be read is
// reported and gets no evidence; ledgers without an endpoint are listed as left manual.
import type { FileChange } from '../shared/changes.ts';
import type { ImportContext, ImportResult, Importer } from '../shared/importer.ts';
import { readDataDocs, renderDoc, type DataDoc } from '../shared/data-docs.ts';
import { readLedgers } from '../shared/ledgers.ts';
import { rpcEvidence, writeEvidence } from './evidence.ts';
import { rpcVariable } from './ledgers.ts';
import { DEFAULT_RPC_TIMEOUT_MS, pinLedger, type PinnedLedger } from './rpc.ts';
import { planReads, type Target } from './targets.ts';
import { readToken } from './token.ts';

/** RPC_TIMEOUT_MS bounds every RPC call (hosted endpoints can hang rather than fail). */
function timeoutOf(env: ImportContext['env']): number {
  const value = Number(env['RPC_TIMEOUT_MS'] ?? DEFAULT_RPC_TIMEOUT_MS);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_RPC_TIMEOUT_MS;
}

const addressesOn = (file: DataDoc, ledger: string, all: readonly Target[]) =>
  all.filter((t) => t.file === file && t.ledger === ledger).map((t) => t.address);

async function run({ root, env }: ImportContext): Promise<ImportResult> {
  const assets = readDataDocs(root, 'data/assets');
  const { byLedger, chainIds, skipped } = planReads(assets, env, readLedgers(root));
  const report: string[] = [];
  const edited = new Set<DataDoc>();

  // Every endpoint is checked (chain id, block) before any contract is read: a misconfigured
  // ledger stops the run before anything else is reported or written.
  const pinned: [PinnedLedger, Target[]][] = [];
  for (const [ledger, targets] of byLedger)
    pinned.push([
      await pinLedger(ledger, chainIds.get(ledger)!, env[rpcVariable(ledger)]!, timeoutOf(env)),
      targets,
    ]);

  for (const [ledger, targets] of pinned) {
    report.push(
      `${ledger.ledger}: chain id ${ledger.chainId}, block ${ledger.blockNumber} (${ledger.blockTime}), ${targets.length} contract(s)`,
    );
    for (const target of targets) {
      const read = await readToken(ledger, target.address);
      const at = `  ${target.tfin} ${target.ledger} ${target.address}`;
      if (!read.ok) {
        report.push(`${at}: PROBLEM: ${read.problem}; no evidence written`);
        continue;
      }
      const { facts } = read;
      writeEvidence(
        target.file.doc,
        rpcEvidence(ledger, target.address, facts),
        addressesOn(target.file, target.ledger, targets),
      );
      edited.add(target.file);
      report.push(
        `${at}: ${facts.name} (${facts.symbol}), ${facts.decimals} decimals, supply ${facts.supply}`,
      );
    }
  }
  for (const s of skipped)
    report.push(`skipped (method stays manual): ${s.tfin} ${s.ledger} ${s.address}: ${s.reason}`);
  if (!byLedger.size) report.push('no ledger was read: set RPC_URL_<LEDGER> (e.g. RPC_URL_ETH)');

  const changes: FileChange[] = [...edited].map((f) => ({ path: f.path, after: renderDoc(f) }));
  return { changes, report };
}

export const onchainImporter: Importer = {
  name: 'onchain',
  summary: 'L1 evidence read over RPC: code, name, symbol, decimals, totalSupply of EVM contracts',
  needsInput: false,
  run,
};
