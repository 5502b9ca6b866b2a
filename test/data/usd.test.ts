// Issue #26: every amount is in USD or says why not, and sort=amount_usd says how many matching
// assets it could not place by USD (they come last, never left out). Over the real data.
import { describe, expect, it } from 'vitest';
import { loadData } from '../../src/authoring/load.ts';
import { registryPage } from '../../src/api/registry-list.ts';
import { buildDataset } from '../../src/dataset/artifact.ts';
import { usdRate } from '../../src/dataset/stablecoins.ts';

const loaded = await loadData(process.cwd(), '2026-11-22');
const dataset = buildDataset(
  { ...loaded, codes: loaded.codes!, datasetDate: loaded.datasetDate! },
  'test',
  new Date(),
);
const fx = loaded.market!.fx?.record ?? null;

describe('amounts in USD', () => {
  it('each amount has value_usd with its rate, or null with the reason', () => {
    for (const a of dataset.assets) {
      if (!a.amount) continue;
      const rate = usdRate(fx, a.amount.currency, a.amount.as_of);
      if (rate) {
        expect(a.amount.value_usd, a.tfin).toBe(Math.round(a.amount.value * rate.rate));
        expect(a.amount.usd_null_reason).toBeNull();
        if (a.amount.currency !== 'USD') expect(a.amount.fx).toEqual(rate);
      } else {
        expect(a.amount.value_usd, a.tfin).toBeNull();
        expect(a.amount.usd_null_reason, a.tfin).toMatch(
          new RegExp(`^Not converted to USD: no ECB euro reference rate for .*${a.amount.as_of}`),
        );
      }
    }
  });

  it('sort=amount_usd keeps the assets without a USD amount, last, and counts them', () => {
    for (const sort of ['amount_usd', '-amount_usd']) {
      const page = registryPage(dataset, { sort, limit: '500' });
      if (!page.ok) throw new Error('refused');
      const without = dataset.assets.filter((a) => a.amount?.value_usd == null).length;
      expect(without).toBeGreaterThan(0);
      expect(page.meta.total).toBe(dataset.assets.length);
      expect(page.meta.without_usd).toBe(without);
      expect(page.page.slice(-without).every((r) => r.amount_usd === null)).toBe(true);
    }
    const plain = registryPage(dataset, { limit: '5' });
    expect(plain.ok && 'without_usd' in plain.meta).toBe(false);
  });
});
