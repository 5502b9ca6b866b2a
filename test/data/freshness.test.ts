// Freshness as users see it, recomputed from the YAML files independently of src/dataset: every
// served figure's `stale` flag (past its kind's maximum age at the dataset date; an ended asset's
// final figure does not age), and meta.freshness (share within the maximum age, how many past it,
// the oldest figure named) — which the status operation and /docs/data-report carry too.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { buildDataset, datasetMeta } from '../../src/dataset/artifact.ts';
import { stablecoinsBody } from '../../src/api/bodies.ts';
import { assetSummary } from '../../src/dataset/asset-shapes.ts';
import { loadData } from '../../src/authoring/load.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
const read = (f: string) => parse(readFileSync(path.resolve(f), 'utf8')) as any;
const yamlIn = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => read(`${dir}/${f}`));
const assets: any[] = yamlIn('data/assets');
const coins: any[] = yamlIn('data/stablecoins');
const maxAge: Record<string, number | null> = read('data/codes/source-policy.yaml').max_age_days;
const datasetDate: string = read('data/release.yaml').dataset_date;

const days = (from: string) => (Date.parse(datasetDate) - Date.parse(from)) / 86_400_000;
const past = (kind: string, asOf: string) => maxAge[kind] !== null && days(asOf) > maxAge[kind]!;
const ended = (a: any) => ['matured', 'redeemed', 'closed'].includes(a.lifecycle_status);

// The loader's own date check is not what is tested here: it runs at the dataset date.
const loaded = await loadData(path.resolve('.'), datasetDate);
const dataset = buildDataset(
  { ...loaded, codes: loaded.codes!, datasetDate: loaded.datasetDate! },
  'test',
  new Date(),
);

/** Every figure that ages, independently: [record, figure, kind, as_of]. */
const aging: [string, string, string, string][] = [
  ...assets
    .filter((a) => a.amount && !ended(a))
    .map(
      (a) => [a.tfin, 'amount', a.amount.kind, a.amount.as_of] as [string, string, string, string],
    ),
  ...coins.flatMap((c) =>
    (['market_cap', 'circulating_supply'] as const)
      .filter((k) => c[k].value !== null)
      .map((k) => [c.id, k, k, c[k].as_of] as [string, string, string, string]),
  ),
];

describe('freshness visible to users', () => {
  it('flags every asset amount past its maximum age in its own record (profile and summary)', () => {
    const flagged: string[] = [];
    for (const a of assets) {
      const profile = dataset.assets.find((p) => p.tfin === a.tfin)!;
      if (!a.amount) {
        expect(profile.amount).toBeNull();
        continue;
      }
      const expected = !ended(a) && past(a.amount.kind, a.amount.as_of);
      expect(profile.amount!.stale, a.tfin).toBe(expected);
      expect(assetSummary(profile).amount!.stale).toBe(expected);
      if (expected) flagged.push(a.tfin);
    }
    // The data has such figures today: the flag is not vacuously false.
    expect(flagged.length).toBeGreaterThan(0);
  });

  it('flags every stablecoin figure past its maximum age; a coin without a figure is not stale', () => {
    const served = stablecoinsBody(dataset).data.stablecoins;
    for (const c of coins)
      for (const kind of ['market_cap', 'circulating_supply'] as const) {
        const figure = served.find((s) => s.id === c.id)![kind];
        expect(figure.stale, `${c.id} ${kind}`).toBe(
          c[kind].value !== null && past(kind, c[kind].as_of),
        );
      }
  });

  it('meta.freshness states the share within the maximum age, how many are past it, and the oldest figure', () => {
    const pastCount = aging.filter(([, , kind, asOf]) => past(kind, asOf)).length;
    const oldest = [...aging].sort(
      (a, b) => a[3].localeCompare(b[3]) || a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]),
    )[0]!;
    const { freshness } = datasetMeta(dataset);
    expect(freshness).toMatchObject({
      dataset_date: datasetDate,
      figures: aging.length,
      past_max_age: pastCount,
      within_max_age_pct: Math.round(((aging.length - pastCount) / aging.length) * 1000) / 10,
      oldest: oldest[3],
      oldest_figure: {
        record: oldest[0],
        figure: oldest[1],
        as_of: oldest[3],
        age_days: days(oldest[3]),
      },
    });
  });
});
