// The ledger code table (data/codes/ledgers.yaml) as importers use it: the code a source's chain
// key stands for (DefiLlama's `avax` → AVA) and the EIP-155 chain id an EVM ledger's RPC endpoint
// must report. Read from the data tree the import runs on, through the zod shape data:check uses;
// re-read only when the file changes, since an importer asks once per row.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ledgerTable, type LedgerTable } from '../../domain/codes.ts';
import { ImportError } from './errors.ts';

export const LEDGERS_FILE = 'data/codes/ledgers.yaml';

/** The project this module belongs to: the default data tree. */
const PROJECT_ROOT = path.resolve(import.meta.dirname, '../../..');

export type LedgerEntry = LedgerTable['ledgers'][number];

export interface Ledgers {
  /** The table's entry for a ledger code; undefined when the code is not in the table. */
  entry(code: string): LedgerEntry | undefined;
  /** The ledger code for a source's chain key, e.g. ('defillama', 'avax') → 'AVA'. */
  forChain(source: string, key: string): string | undefined;
  /** The EIP-155 chain id of an EVM ledger; undefined when not EVM, unknown or not confirmed. */
  evmChainId(code: string): number | undefined;
}

const cache = new Map<string, { mtimeMs: number; ledgers: Ledgers }>();

export function readLedgers(root: string = PROJECT_ROOT): Ledgers {
  const file = path.join(root, LEDGERS_FILE);
  let mtimeMs: number;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    throw new ImportError(
      { input: LEDGERS_FILE },
      'is missing',
      'the ledger code table of the data tree',
    );
  }
  const cached = cache.get(file);
  if (cached?.mtimeMs === mtimeMs) return cached.ledgers;
  const ledgers = indexOf(file);
  cache.set(file, { mtimeMs, ledgers });
  return ledgers;
}

/** The ledger code for a source's chain key in the project's table; undefined when unknown. */
export const ledgerForChain = (source: string, key: string, root?: string): string | undefined =>
  readLedgers(root).forChain(source, key);

function indexOf(file: string): Ledgers {
  let value: unknown;
  try {
    value = parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ImportError(
      { input: LEDGERS_FILE },
      `is not valid YAML (${(error as Error).message.split('\n')[0]})`,
      'the ledger code table: npm run data:check shows the line',
    );
  }
  const parsed = ledgerTable.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ImportError(
      { input: `${LEDGERS_FILE} at ${issue.path.join('.') || 'the top'}` },
      issue.message,
      'the ledger code table: npm run data:check explains each problem',
    );
  }
  // Keys are per source (`${source}\n${key}` cannot collide across sources). A key repeated in a
  // broken table keeps its first ledger; data:check names the repetition (ledger-aliases-unique).
  const byAlias = new Map<string, string>();
  const chainIds = new Map<string, number>();
  const entries = new Map(parsed.data.ledgers.map((l) => [l.code, l]));
  for (const ledger of parsed.data.ledgers) {
    for (const [source, keys] of Object.entries(ledger.aliases ?? {}))
      for (const key of keys)
        if (!byAlias.has(`${source}\n${key}`)) byAlias.set(`${source}\n${key}`, ledger.code);
    if (ledger.vm === 'evm' && typeof ledger.chain_id === 'number')
      chainIds.set(ledger.code, ledger.chain_id);
  }
  return {
    entry: (code) => entries.get(code),
    forChain: (source, key) => byAlias.get(`${source}\n${key}`),
    evmChainId: (code) => chainIds.get(code),
  };
}
