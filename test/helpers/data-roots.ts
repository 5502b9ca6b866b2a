// Throw-away project roots for the importer and refresh tests: a copy of the real data/ or a
// near-empty one, the asset records the tests write into it, what they read back, and the local
// EVM nodes (test/fixtures/importers/onchain/nodes.ts) started on a dataset date and stopped
// together.
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import type { Anvil } from '../fixtures/importers/onchain/anvil.ts';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A fresh root holding a copy of the real data/, and that data's dataset date. */
export function copyOfData(prefix: string): { root: string; datasetDate: string } {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  cpSync('data', path.join(root, 'data'), { recursive: true });
  const datasetDate = parse(readFileSync(path.join(root, 'data/release.yaml'), 'utf8'))
    .dataset_date as string;
  return { root, datasetDate };
}

/**
 * A fresh root with the real code tables (the importers learn ledgers and chain ids from them),
 * a release dated `datasetDate` when one is given, and the empty folders `dirs` under it.
 */
export function dataRoot(
  prefix: string,
  options: { datasetDate?: string; dirs?: readonly string[] } = {},
): string {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  for (const dir of options.dirs ?? ['data/assets'])
    mkdirSync(path.join(root, dir), { recursive: true });
  cpSync('data/codes', path.join(root, 'data/codes'), { recursive: true });
  if (options.datasetDate)
    writeFileSync(path.join(root, 'data/release.yaml'), `dataset_date: "${options.datasetDate}"\n`);
  return root;
}

/** Seconds since 1970 of 01:00 UTC on `date`: nodes started then date their blocks on that day. */
export const genesisOn = (date: string) => Date.parse(`${date}T01:00:00Z`) / 1000;

/** Stops every node given that started (a beforeAll that failed leaves some undefined). */
export async function stopNodes(nodes: readonly ({ anvil: Anvil } | undefined)[]): Promise<void> {
  await Promise.all(nodes.map((n) => n?.anvil.stop()));
}

/** Every file under data/ of `root`, by path. */
export function snapshotData(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(root, dir))) {
      const rel = `${dir}/${name}`;
      if (statSync(path.join(root, rel)).isDirectory()) walk(rel);
      else files.set(rel, readFileSync(path.join(root, rel), 'utf8'));
    }
  };
  walk('data');
  return files;
}

/** The files that differ between two snapshots (added, removed or changed), sorted. */
export const changedFiles = (a: Map<string, string>, b: Map<string, string>) =>
  [...new Set([...a.keys(), ...b.keys()])].filter((f) => a.get(f) !== b.get(f)).sort();

/** The YAML records of one folder of `root`, with their paths, in name order. */
export const recordsIn = (root: string, dir: string): [string, Obj][] =>
  readdirSync(path.join(root, dir))
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => [`${dir}/${f}`, parse(readFileSync(path.join(root, dir, f), 'utf8'))]);

/** One asset record of `root`, parsed. */
export const readAsset = (root: string, tfin: string): Obj =>
  parse(readFileSync(path.join(root, 'data/assets', `${tfin}.yaml`), 'utf8'));

export interface TestAsset {
  tfin: string;
  name: string;
  /** Written as YAML: `null`, or a ticker. */
  shortName: string;
  ledgers: readonly { ledger: string; address: string; tokenStandard: string }[];
  level: string;
  basis: string;
}

/**
 * Writes an asset record with only what the ledger importers read (its ledger entries, custody
 * and validation) into `root`'s data/assets/.
 */
export function writeAsset(root: string, asset: TestAsset): void {
  const text = [
    `tfin: ${asset.tfin}`,
    `name: ${asset.name}`,
    `short_name: ${asset.shortName}`,
    'ledgers:',
    ...asset.ledgers.flatMap((l) => [
      `  - ledger: ${l.ledger}`,
      `    token_standard: ${l.tokenStandard}`,
      `    contract_address: "${l.address}"`,
      '    contract_address_null_reason: null',
    ]),
    'custody: { custodian: null, transfer_agent: null }',
    'validation:',
    `  level: ${asset.level}`,
    `  basis: ${asset.basis}`,
    '  evidence:',
    '    technical: []',
    'sources: []',
    '',
  ].join('\n');
  writeFileSync(path.join(root, 'data/assets', `${asset.tfin}.yaml`), text);
}

/** One deployment of a coin record, as a YAML list item under `deployments:`. */
export const coinDeployment = (ledger: string, address: string, kind = 'issued') =>
  `  - ledger: ${ledger}\n    kind: ${kind}\n    contract_address: "${address}"\n`;
