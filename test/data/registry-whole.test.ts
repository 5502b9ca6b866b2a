// The registry list as the service's contract states it: without `limit` the answer holds every
// record its query selects (no parameters: the whole registry); `limit` and `cursor` page only
// when asked. Over the real data, and over a registry of more records than the largest page.
import { describe, expect, it } from 'vitest';
import { loadData } from '../../src/authoring/load.ts';
import { MAX_LIMIT, registryPage } from '../../src/api/registry-list.ts';
import { buildDataset } from '../../src/dataset/artifact.ts';

const loaded = await loadData(process.cwd(), '2026-11-22');
const dataset = buildDataset(
  { ...loaded, codes: loaded.codes!, datasetDate: loaded.datasetDate! },
  'test',
  new Date(),
);

describe('registry list paging', () => {
  it('no parameters: every record, no cursor', () => {
    const page = registryPage(dataset, {});
    if (!page.ok) throw new Error(page.reason);
    expect(page.page.length).toBe(dataset.registry.rows.length);
    expect(page.meta).toMatchObject({
      count: page.page.length,
      total: page.page.length,
      next_cursor: null,
    });
  });

  it('a registry of more records than the largest page: all without limit, pages with it', () => {
    const rows = Array.from({ length: MAX_LIMIT * 2 + 37 }, (_, i) => ({
      ...dataset.registry.rows[i % dataset.registry.rows.length]!,
      tfin: `TFIN-FUND-ETH-2026-${String(i + 1).padStart(4, '0')}`,
    }));
    const core = { ...dataset, registry: { ...dataset.registry, rows } };
    const all = registryPage(core, {});
    if (!all.ok) throw new Error(all.reason);
    expect(all.page.length).toBe(rows.length);
    expect(all.meta.next_cursor).toBeNull();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = registryPage(core, { limit: String(MAX_LIMIT), ...(cursor ? { cursor } : {}) });
      if (!page.ok) throw new Error(page.reason);
      expect(page.page.length).toBeLessThanOrEqual(MAX_LIMIT);
      seen.push(...page.page.map((r) => r.tfin));
      cursor = page.meta.next_cursor;
    } while (cursor);
    expect(seen).toEqual(rows.map((r) => r.tfin));
  });

  it('a filter without limit: every record it selects (validation_level=L1 means L1 or above)', () => {
    const page = registryPage(dataset, { validation_level: 'L1' });
    if (!page.ok) throw new Error(page.reason);
    const verified = dataset.registry.rows.filter((r) => r.validation_level !== 'unverified');
    expect(page.page.map((r) => r.tfin)).toEqual(verified.map((r) => r.tfin));
    expect(verified.length).toBeGreaterThanOrEqual(30);
  });
});
