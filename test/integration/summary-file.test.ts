// Issue #14 item 9: computed registry pages splice their rows from the prebuilt summaries file
// (summary-file.ts) instead of rebuilding each summary from its profile. The bodies must be the
// bytes that serialising the summaries gives, for every order, page size and cursor.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readProfiles } from '../../src/dataset/artifact.ts';
import { serialise } from '../../src/api/bodies.ts';
import { registryList, encodeCursor } from '../../src/api/registry-list.ts';
import { assetSummary } from '../../src/dataset/asset-shapes.ts';
import { datasetViews } from '../../src/api/dataset-views.ts';
import { loadPrebuilt } from '../../src/representation/prebuilt.ts';

const dataset = path.resolve('build/dataset.json');
const prebuilt = loadPrebuilt('dist', dataset);
const profiles = new Map([...readProfiles(dataset)].map((p) => [p.tfin, p]));
const reference = {
  core: prebuilt.core,
  summaryOf: (tfin: string) => assetSummary(profiles.get(tfin)!),
};
const view = datasetViews(prebuilt.core, prebuilt.registry).get('/v1/registry/assets')!;

describe('registry pages from the summaries file', () => {
  it('has a row per profile', () => {
    expect(prebuilt.registry.summaryRows).toBeDefined();
    expect(profiles.size).toBe(prebuilt.profileCount);
  });

  it('are byte-identical to serialised summaries, in every order, size and page', () => {
    const queries: Record<string, string>[] = [{}, { limit: '1' }, { limit: '500' }];
    for (const key of ['tfin', 'name', 'risk', 'as_of', 'amount_usd'])
      for (const sort of [key, `-${key}`])
        for (const limit of ['1', '7', '210']) queries.push({ sort, limit });
    queries.push({
      sort: 'name',
      limit: '5',
      cursor: encodeCursor(5, { sort: 'name', limit: '5' }),
    });
    queries.push({ asset_class: 'no-such-class' });
    for (const q of queries) {
      const expected = registryList(reference, q);
      expect(expected.ok).toBe(true);
      if (!expected.ok) continue;
      const got = view.compute(q, 'json');
      expect(got.ok).toBe(true);
      if (!got.ok) continue;
      expect(Buffer.from(got.text).toString('utf8')).toBe(serialise(expected.body));
    }
  });

  it('still refuses a cursor issued for another query', () => {
    const got = view.compute({ sort: 'name', cursor: encodeCursor(5, { sort: 'risk' }) }, 'json');
    expect(got.ok).toBe(false);
  });
});
