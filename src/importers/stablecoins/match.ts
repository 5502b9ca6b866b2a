// Which DefiLlama coin a data/stablecoins record is. By ticker and peg, not by a table of DefiLlama
// ids kept here: the records already carry both, and an id table is one more thing to get wrong.
// Tickers are not unique on DefiLlama (clones and bridged copies reuse them), so two candidates
// for one record is a reported ambiguity, never a guess.
import type { DataDoc } from '../shared/data-docs.ts';
import type { PeggedAmount } from './defillama.ts';

export type Match = { record: DataDoc; coin: PeggedAmount } | { record: DataDoc; problem: string };

// "USD₮" and "USDT" are one ticker; case differs between publishers (EURe, EURE).
const ticker = (symbol: string) => symbol.replace(/₮/g, 'T').toUpperCase();

export function matchRecords(records: readonly DataDoc[], coins: readonly PeggedAmount[]): Match[] {
  const byKey = new Map<string, PeggedAmount[]>();
  for (const coin of coins) {
    const key = `${ticker(coin.symbol)}/${coin.peg}`;
    byKey.set(key, [...(byKey.get(key) ?? []), coin]);
  }
  return records.map((record) => {
    const symbol = String(record.doc.get('symbol'));
    const peg = String(record.doc.get('peg_currency'));
    const found = byKey.get(`${ticker(symbol)}/${peg}`) ?? [];
    if (found.length === 1) return { record, coin: found[0]! };
    return {
      record,
      problem: found.length
        ? `${found.length} DefiLlama coins are ${symbol}/${peg} (${found.map((c) => `id ${c.id} "${c.name}"`).join(', ')}); not changed`
        : `no DefiLlama coin is ${symbol}/${peg} in the input`,
    };
  });
}
