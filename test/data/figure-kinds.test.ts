// Every figure states its kind, and no total adds different kinds: dominance sums circulating
// supply only, so changing every other kind of figure (market caps, deployments' total supply
// read from the ledgers) cannot move a total or a share; and coins that are not live (dead,
// delisted, depegged, wound down) are shown with their status and never counted, whatever
// their figures say.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDataset } from '../../src/dataset/artifact.ts';
import { buildMarketSection } from '../../src/dataset/market-view.ts';
import { loadData } from '../../src/authoring/load.ts';
import { assetAmount } from '../../src/domain/asset.ts';
import { stablecoinDeployment, type StablecoinRecord } from '../../src/domain/market.ts';

const loaded = await loadData(path.resolve('.'), '2099-12-31');
const datasetDate = loaded.datasetDate!;
const codes = loaded.codes!;
const coins = loaded.market!.stablecoins.map((c) => c.record);
const section = (records: StablecoinRecord[]) =>
  buildMarketSection(
    records,
    loaded.market!.venues!.record,
    loaded.market!.fx?.record ?? null,
    codes.stablecoinScores,
    datasetDate,
    codes.sourcePolicy.max_age_days,
  );
const baseline = section(coins);

describe('figure kinds', () => {
  it('every asset amount names its kind; a deployment supply is a total supply and says so', () => {
    const dataset = buildDataset({ ...loaded, codes, datasetDate }, 'test', new Date());
    for (const a of dataset.assets)
      if (a.amount) expect(assetAmount.shape.kind.options).toContain(a.amount.kind);
    const supply = {
      value: 1,
      as_of: '2026-11-01',
      chain_id: 1,
      block_number: 1,
      block_time: '2026-11-01T00:00:00Z',
      decimals: 6,
    };
    const deployment = { ledger: 'ETH', kind: 'issued', contract_address: `0x${'1'.repeat(40)}` };
    expect(stablecoinDeployment.safeParse({ ...deployment, supply }).success).toBe(false);
    expect(
      stablecoinDeployment.safeParse({ ...deployment, supply: { kind: 'total_supply', ...supply } })
        .success,
    ).toBe(true);
    expect(
      stablecoinDeployment.safeParse({
        ...deployment,
        supply: { kind: 'circulating_supply', ...supply },
      }).success,
    ).toBe(false);
  });

  it('market caps and ledger total supplies never enter a total or a share', () => {
    expect(baseline.dominance.coins_compared).toBeGreaterThan(1);
    const changed = coins.map((c) => ({
      ...c,
      market_cap:
        c.market_cap.value === null
          ? c.market_cap
          : { ...c.market_cap, value: c.market_cap.value * 7 },
      deployments: (c.deployments ?? []).map((d) => ({
        ...d,
        supply: {
          kind: 'total_supply' as const,
          value: 1e12,
          as_of: datasetDate,
          chain_id: 1,
          block_number: 1,
          block_time: `${datasetDate}T00:00:00Z`,
          decimals: 6,
        },
      })),
    }));
    expect(section(changed).dominance).toEqual(baseline.dominance);
  });

  it('a coin that is not live is shown with its status and never counted, however large its figure', () => {
    const notLive = coins.filter((c) => c.status.value !== 'live');
    expect(notLive.length).toBeGreaterThan(0);
    // Dated inside the window, where a live coin's figure would be compared.
    const inWindow = baseline.dominance.window!.start;
    const inflated = coins.map((c) =>
      c.status.value === 'live'
        ? c
        : {
            ...c,
            circulating_supply: {
              ...c.circulating_supply,
              value: 1e13,
              value_null_reason: null,
              as_of: inWindow,
              source: c.status.source,
            },
          },
    );
    const d = section(inflated).dominance;
    expect(d).toEqual(baseline.dominance);
    expect(d.not_live.map((n) => n.id).sort()).toEqual(notLive.map((c) => c.id).sort());
    for (const n of d.not_live)
      expect(n.status).toBe(coins.find((c) => c.id === n.id)!.status.value);
    // Control: the same figure on a live coin is compared, so the test above can fail.
    const revived = inflated.map((c) =>
      c.id === notLive[0]!.id ? { ...c, status: { ...c.status, value: 'live' as const } } : c,
    );
    expect(section(revived).dominance.total_usd).toBeGreaterThan(baseline.dominance.total_usd);
  });
});
