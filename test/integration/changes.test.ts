// Issue #15: every record carries `last_changed`, derived from its data, and `changed_since=` on
// the three dataset operations returns the records changed after a date. Over real HTTP; bodies
// validated against the published schemas; the rule recomputed here independently.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDataset, readProfiles } from '../../src/dataset/artifact.ts';
import { expectProblem, expectSchema } from '../helpers/schemas.ts';
import { DEMO, startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
const profiles = [...readProfiles()];
const core = readDataset();
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

/** The documented rule: the newest as_of, counts_as_of or source published date in the record. */
function newestDate(node: unknown, skip = new Set(['last_changed'])): string {
  let best = '';
  const visit = (n: unknown) => {
    if (Array.isArray(n)) return n.forEach(visit);
    if (!n || typeof n !== 'object') return;
    for (const [k, v] of Object.entries(n)) {
      if (skip.has(k)) continue;
      if (['as_of', 'counts_as_of', 'published'].includes(k) && typeof v === 'string') {
        if (/^\d{4}-\d{2}-\d{2}$/.test(v) && v > best) best = v;
      } else visit(v);
    }
  };
  visit(node);
  return best;
}

async function get<T>(path: string, schema: string): Promise<T> {
  const res = await fetch(server.url + path, { headers: DEMO });
  expect(res.status, path).toBe(200);
  const body = (await res.json()) as T;
  expectSchema(schema, body);
  return body;
}

describe('last_changed', () => {
  it('is derived from each asset’s dates (figures, history, sources), in the list and the profile', async () => {
    const list = await get<{ data: { tfin: string; last_changed: string }[] }>(
      '/v1/registry/assets?limit=500',
      'v1/registry-assets.schema.json',
    );
    for (const d of list.data) {
      const p = profiles.find((x) => x.tfin === d.tfin)!;
      expect(d.last_changed, d.tfin).toBe(newestDate(p));
      expect(p.last_changed).toBe(d.last_changed);
    }
    expect(new Set(list.data.map((d) => d.last_changed)).size).toBeGreaterThan(1);
  });
});

describe('changed_since', () => {
  it('on the registry: exactly the assets changed after the date, with the other filters and in CSV', async () => {
    const dates = [...new Set(profiles.map((p) => p.last_changed))].sort();
    const since = dates[Math.floor(dates.length / 2)]!;
    const want = profiles.filter((p) => p.last_changed > since).map((p) => p.tfin);
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(profiles.length);
    const body = await get<{
      data: { tfin: string }[];
      meta: { total: number; dataset_version: string };
    }>(`/v1/registry/assets?changed_since=${since}&limit=500`, 'v1/registry-assets.schema.json');
    expect(body.data.map((d) => d.tfin)).toEqual(want);
    expect(body.meta.dataset_version).toBe(core.dataset_version);
    const csv = await fetch(`${server.url}/v1/registry/assets?changed_since=${since}&format=csv`, {
      headers: DEMO,
    });
    expect((await csv.text()).trimEnd().split('\r\n').length - 1).toBe(want.length);
    const fund = await get<{ data: { tfin: string }[] }>(
      `/v1/registry/assets?changed_since=${since}&asset_class=FUND&limit=500`,
      'v1/registry-assets.schema.json',
    );
    expect(fund.data.map((d) => d.tfin)).toEqual(want.filter((t) => t.startsWith('TFIN-FUND')));
  });

  it('on the stablecoins and the member states', async () => {
    const coins = core.market.coins;
    const latest = coins
      .map((c) => c.last_changed)
      .sort()
      .at(-1)!;
    const none = await get<{ data: { stablecoins: unknown[] }; meta: { count: number } }>(
      `/v1/market/stablecoins?changed_since=${latest}`,
      'v1/market-stablecoins.schema.json',
    );
    expect(none.data.stablecoins).toEqual([]);
    const all = await get<{ data: { stablecoins: { id: string; last_changed: string }[] } }>(
      '/v1/market/stablecoins?changed_since=2000-01-01',
      'v1/market-stablecoins.schema.json',
    );
    expect(all.data.stablecoins.map((c) => c.id)).toEqual(coins.map((c) => c.id));
    // A coin's own as_of is when its record was written: it counts only when nothing else is dated.
    for (const c of all.data.stablecoins) {
      const { as_of: written, ...facts } = coins.find((x) => x.id === c.id)!;
      const newest = newestDate(facts);
      expect(c.last_changed, c.id).toBe(newest === '' ? written : newest);
    }

    const states = core.mica.member_states;
    const newest = states
      .map((s) => s.last_changed)
      .sort()
      .at(-1)!;
    const after = await get<{
      data: { member_states: unknown[] };
      meta: { member_states: number };
    }>(
      `/v1/compliance/mica-status?changed_since=${newest}`,
      'v1/compliance-mica-status.schema.json',
    );
    expect(after.data.member_states).toEqual([]);
    expect(after.meta.member_states).toBe(0);
    const before = await get<{ data: { member_states: unknown[] } }>(
      '/v1/compliance/mica-status?changed_since=2000-01-01&member_state=DE',
      'v1/compliance-mica-status.schema.json',
    );
    expect(before.data.member_states.length).toBe(1);
  });

  it('refuses a value that is not a date', async () => {
    for (const q of [
      'changed_since=yesterday',
      'changed_since=2026-13-01',
      'changed_since=2026-1-1',
      // Issue #25: the form of a date is not enough, the day must exist.
      'changed_since=2026-02-30',
      'changed_since=2025-02-29',
      'changed_since=2026-04-31',
    ]) {
      await expectProblem(
        await fetch(`${server.url}/v1/registry/assets?${q}`, { headers: DEMO }),
        400,
        'invalid_parameter',
      );
    }
    const leap = await fetch(`${server.url}/v1/registry/assets?changed_since=2024-02-29`, {
      headers: DEMO,
    });
    expect(leap.status).toBe(200);
    const impossible = await fetch(
      `${server.url}/v1/market/stablecoins?dataset_version=2026-02-30.0123456789ab`,
      { headers: DEMO },
    );
    await expectProblem(impossible, 400, 'invalid_parameter');
  });
});
