// Adapter rows grouped into products (issuer + ticker, or the product name where the row has no
// ticker) and each product's ledger entries: the ledger code of its chain (the shared ledger
// table; an unknown chain is reported, never guessed) and the address with where it was read.
import type { FactOrigin } from '../../domain/common.ts';
import type { Ledgers } from '../shared/ledgers.ts';
import type { AdapterRow } from './rows.ts';
import type { AdapterUniverse } from './universe.ts';

export const ADAPTER_SOURCE = 'defillama-rwa-adapters';

export interface ProductLedger {
  ledger: string;
  contract_address: string;
  origin: FactOrigin;
}

export interface Product {
  issuer: string;
  /** The ticker (the first of the universe's tickers for a product with several), else the name. */
  key: string;
  ticker: string | null;
  name: string | null;
  asset_class: string;
  rows: AdapterRow[];
  ledgers: ProductLedger[];
}

const canonicalTickers = (universe: AdapterUniverse) => {
  const out = new Map<string, string>();
  for (const r of universe.records)
    for (const t of r.tickers) out.set(`${r.issuer}\n${t}`, r.tickers[0]!);
  return out;
};

export function groupProducts(
  rows: readonly AdapterRow[],
  universe: AdapterUniverse,
  ledgers: Ledgers,
  report: string[],
): Product[] {
  const canonical = canonicalTickers(universe);
  const products = new Map<string, Product>();
  const unlabelled: AdapterRow[] = [];
  for (const row of rows) {
    // A row the adapter does not label (its `label_basis` says so) is no product's, whatever its name column says.
    const label = row.label_basis === 'unlabelled in adapter' ? null : (row.ticker ?? row.product);
    if (!label) {
      unlabelled.push(row);
      continue;
    }
    const key = (row.ticker && canonical.get(`${row.issuer}\n${row.ticker}`)) ?? label;
    const id = `${row.issuer}\n${key}`;
    const product = products.get(id) ?? {
      issuer: row.issuer,
      key,
      ticker: row.ticker ? key : null,
      name: null,
      asset_class: row.asset_class,
      rows: [],
      ledgers: [],
    };
    product.name ??= row.product;
    product.rows.push(row);
    products.set(id, product);
  }
  for (const row of unlabelled)
    report.push(
      `row ${row.row}: ${row.issuer} token on ${row.chain} (${row.address}) names no product in the adapter; not attached to any record`,
    );
  const unknownChains = new Map<string, number>();
  for (const product of products.values()) {
    for (const row of product.rows) {
      const ledger = ledgers.forChain('defillama', row.chain);
      if (!ledger) {
        unknownChains.set(row.chain, (unknownChains.get(row.chain) ?? 0) + 1);
        continue;
      }
      const same = product.ledgers.find((l) => l.ledger === ledger);
      if (same) {
        if (same.contract_address.toLowerCase() !== row.address.toLowerCase())
          report.push(
            `row ${row.row}: ${product.issuer} ${product.key} has a second address on ${ledger} (${row.address}); the first (${same.contract_address}) is kept`,
          );
        continue;
      }
      product.ledgers.push({
        ledger,
        contract_address: row.address,
        origin: {
          source: ADAPTER_SOURCE,
          repository: row.origin.repository,
          path: row.origin.path,
          ...(row.origin.line === undefined ? {} : { line: row.origin.line }),
          commit: row.origin.commit,
        },
      });
    }
  }
  for (const [chain, count] of [...unknownChains].sort())
    report.push(
      `chain "${chain}" (${count} row(s)) has no ledger code in data/codes/ledgers.yaml; those addresses are not imported`,
    );
  return [...products.values()].sort((a, b) =>
    a.issuer === b.issuer ? a.key.localeCompare(b.key) : a.issuer.localeCompare(b.issuer),
  );
}
