// Issue #15: lookup by any identifier (tfin, isin, contract, dti) on endpoint 2, the list's lei,
// isin and lifecycle_status filters, and include=history on the profile and the stablecoins.
// Over real HTTP against the built server; bodies validated against the published schemas; the
// fast path and Astro's endpoint compared byte for byte.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDataset, readProfiles } from '../../src/dataset/artifact.ts';
import type { AssetProfile } from '../../src/domain/api.ts';
import { expectProblem, expectSchema } from '../helpers/schemas.ts';
import { DEMO, raw, startServer, type TestServer } from '../helpers/server.ts';

let fast: TestServer;
let astro: TestServer;
const profiles: AssetProfile[] = [...readProfiles()];
const core = readDataset();

beforeAll(async () => {
  [fast, astro] = await Promise.all([startServer(), startServer({ FAST_PATH: 'off' })]);
});
afterAll(async () => {
  await Promise.all([fast?.stop(), astro?.stop()]);
});

const get = (path: string, server = fast) => fetch(server.url + path, { headers: DEMO });

interface ProfileBody {
  data: AssetProfile;
  meta: { matched_by: { parameter: string; value: string } } & Record<string, unknown>;
}

async function profile(path: string): Promise<ProfileBody> {
  const res = await get(path);
  expect(res.status, path).toBe(200);
  const body = (await res.json()) as ProfileBody;
  expectSchema('v1/registry-asset.schema.json', body);
  return body;
}

const withIsin = profiles.find((p) => p.isin_mapping.isin)!;
const evm = profiles.find((p) =>
  p.ledgers.some(
    (l) => /^0x[0-9a-f]{40}$/i.test(l.contract_address ?? '') && /[A-F]/.test(l.contract_address!),
  ),
)!;
const evmLedger = evm.ledgers.find((l) => /^0x[0-9a-f]{40}$/i.test(l.contract_address ?? ''))!;
const nonEvm = profiles
  .flatMap((p) => p.ledgers.map((l) => ({ p, l })))
  .find(
    ({ l }) =>
      l.contract_address && !/^0x/.test(l.contract_address) && /[A-Z]/.test(l.contract_address),
  )!;
const withHistory = profiles.find((p) => p.amount?.history?.length)!;

describe('lookup by any identifier', () => {
  it('finds an asset by ISIN, in any case, and says which identifier matched', async () => {
    const isin = withIsin.isin_mapping.isin!;
    for (const given of [isin, isin.toLowerCase()]) {
      const body = await profile(`/v1/registry/asset?isin=${given}`);
      expect(body.data.tfin).toBe(withIsin.tfin);
      expect(body.meta.matched_by).toEqual({ parameter: 'isin', value: isin });
    }
  });

  it('finds an asset by contract, EVM addresses in any case, the ledger code in any case', async () => {
    const address = evmLedger.contract_address!;
    const value = `${evmLedger.ledger}:${address.toLowerCase()}`;
    for (const given of [
      `${evmLedger.ledger}:${address}`,
      `${evmLedger.ledger.toLowerCase()}:${address.toUpperCase().replace('0X', '0x')}`,
      value,
    ]) {
      const body = await profile(`/v1/registry/asset?contract=${encodeURIComponent(given)}`);
      expect(body.data.tfin).toBe(evm.tfin);
      expect(body.meta.matched_by).toEqual({ parameter: 'contract', value });
    }
  });

  it('matches other ledgers’ addresses exactly as written', async () => {
    const { p, l } = nonEvm;
    const exact = `${l.ledger}:${l.contract_address}`;
    const body = await profile(`/v1/registry/asset?contract=${encodeURIComponent(exact)}`);
    expect(body.data.tfin).toBe(p.tfin);
    const other = `${l.ledger}:${l.contract_address!.toLowerCase()}`;
    const miss = await get(`/v1/registry/asset?contract=${encodeURIComponent(other)}`);
    const problem = await expectProblem(miss, 404, 'asset_not_found');
    expect(problem['suggestions']).toEqual([]);
  });

  it('answers an unknown ISIN, contract or DTI with 404', async () => {
    for (const q of [
      'isin=XS0000000009',
      'contract=ETH:0x0000000000000000000000000000000000000001',
      'dti=X9J9K872S',
    ]) {
      await expectProblem(await get(`/v1/registry/asset?${q}`), 404, 'asset_not_found');
    }
  });

  it('says which identifier matched on a TFIN lookup too', async () => {
    const body = await profile(`/v1/registry/asset?tfin=${withIsin.tfin.toLowerCase()}`);
    expect(body.meta.matched_by).toEqual({ parameter: 'tfin', value: withIsin.tfin });
  });

  it('refuses several selectors (400), none (400) and malformed ones (400)', async () => {
    const both = await get(
      `/v1/registry/asset?tfin=${withIsin.tfin}&isin=${withIsin.isin_mapping.isin}`,
    );
    const p = await expectProblem(both, 400, 'conflicting_parameters');
    expect(p['errors']).toEqual([
      { parameter: 'tfin', message: 'is one of several selectors' },
      { parameter: 'isin', message: 'is one of several selectors' },
    ]);
    await expectProblem(await get('/v1/registry/asset'), 400, 'missing_parameter');
    await expectProblem(await get('/v1/registry/asset?include=history'), 400, 'missing_parameter');
    for (const q of ['contract=0xabc', 'contract=ETH', 'isin=US03783', 'dti=AB', 'include=all']) {
      await expectProblem(await get(`/v1/registry/asset?${q}`), 400, 'invalid_parameter');
    }
  });
});

describe('include=history on the profile', () => {
  it('omits amount.history by default and adds it, with dates and sources, on request', async () => {
    const plain = await profile(`/v1/registry/asset?tfin=${withHistory.tfin}`);
    expect(plain.data.amount).not.toHaveProperty('history');
    const full = await profile(`/v1/registry/asset?tfin=${withHistory.tfin}&include=history`);
    expect(full.data.amount!.history).toEqual(withHistory.amount!.history);
    for (const point of full.data.amount!.history!) {
      expect(point.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(point.source).toBeTruthy();
    }
    const { history: _h, ...rest } = full.data.amount!;
    expect(rest).toEqual(plain.data.amount);
  });

  it('gives an empty history to an asset without one', async () => {
    const none = profiles.find((p) => p.amount && !p.amount.history?.length)!;
    const body = await profile(`/v1/registry/asset?tfin=${none.tfin}&include=history`);
    expect(body.data.amount!.history).toEqual([]);
  });
});

describe('the fast path and Astro’s endpoint', () => {
  it('send the same bytes for every selector, with and without history, and the same problems', async () => {
    const targets = [
      `tfin=${withHistory.tfin}&include=history`,
      `isin=${withIsin.isin_mapping.isin!.toLowerCase()}`,
      `contract=${encodeURIComponent(`${evmLedger.ledger}:${evmLedger.contract_address!.toUpperCase().replace('0X', '0x')}`)}&include=history`,
    ];
    for (const t of targets) {
      // Twice on the fast path: the second answer comes from the remembered target.
      const [a, again, b] = [
        await raw(`${fast.url}/v1/registry/asset?${t}`),
        await raw(`${fast.url}/v1/registry/asset?${t}`),
        await raw(`${astro.url}/v1/registry/asset?${t}`),
      ];
      expect(a.status, t).toBe(200);
      expect(b.status, t).toBe(200);
      expect(a.body.equals(b.body), t).toBe(true);
      expect(again.body.equals(a.body), t).toBe(true);
      expect(again.headers['etag']).toBe(a.headers['etag']);
    }
    for (const t of [`tfin=${withIsin.tfin}&dti=X9J9K872S`, 'isin=XS0000000009', '']) {
      const a = await raw(`${fast.url}/v1/registry/asset?${t}`);
      const b = await raw(`${astro.url}/v1/registry/asset?${t}`);
      expect(a.status, t).toBe(b.status);
      const strip = (x: Buffer) => ({ ...(JSON.parse(x.toString()) as object), instance: null });
      expect(strip(a.body), t).toEqual(strip(b.body));
    }
  });
});

describe('registry list filters: lei, isin, lifecycle_status', () => {
  interface List {
    data: { tfin: string; lifecycle_status: string }[];
    meta: { total: number; query: Record<string, string> };
  }
  const list = async (q: string): Promise<List> => {
    const res = await get(`/v1/registry/assets?${q}&limit=500`);
    expect(res.status, q).toBe(200);
    const body = (await res.json()) as List;
    expectSchema('v1/registry-assets.schema.json', body);
    return body;
  };
  const tfins = (f: (p: AssetProfile) => boolean) => profiles.filter(f).map((p) => p.tfin);

  it('filter by the issuer’s LEI (any case)', async () => {
    const counts = new Map<string, number>();
    for (const p of profiles)
      if (p.issuer.lei) counts.set(p.issuer.lei, (counts.get(p.issuer.lei) ?? 0) + 1);
    const lei = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    const body = await list(`lei=${lei.toLowerCase()}`);
    expect(body.data.map((d) => d.tfin)).toEqual(tfins((p) => p.issuer.lei === lei));
    expect(body.meta.total).toBeGreaterThan(1);
    expect(body.meta.query).toEqual({ lei, limit: '500' });
  });

  it('filter by ISIN', async () => {
    const body = await list(`isin=${withIsin.isin_mapping.isin}`);
    expect(body.data.map((d) => d.tfin)).toEqual([withIsin.tfin]);
    expect((await list('isin=XS0000000009')).meta.total).toBe(0);
  });

  it('filter by lifecycle status', async () => {
    for (const status of new Set(profiles.map((p) => p.lifecycle_status))) {
      const body = await list(`lifecycle_status=${status.toUpperCase()}`);
      expect(body.data.map((d) => d.tfin)).toEqual(tfins((p) => p.lifecycle_status === status));
      expect(body.data.every((d) => d.lifecycle_status === status)).toBe(true);
    }
  });

  it('refuse malformed values', async () => {
    for (const q of ['lei=ABC', 'isin=12', 'lifecycle_status=alive']) {
      await expectProblem(await get(`/v1/registry/assets?${q}`), 400, 'invalid_parameter');
    }
  });
});

describe('include=history on the stablecoins', () => {
  interface Coins {
    data: {
      stablecoins: {
        id: string;
        market_cap: Record<string, unknown>;
        circulating_supply: Record<string, unknown>;
      }[];
    };
  }
  it('omits history by default and adds every figure’s history on request', async () => {
    const plain = (await (await get('/v1/market/stablecoins')).json()) as Coins;
    expectSchema('v1/market-stablecoins.schema.json', plain);
    for (const c of plain.data.stablecoins) {
      expect(c.market_cap).not.toHaveProperty('history');
      expect(c.circulating_supply).not.toHaveProperty('history');
    }
    const res = await get('/v1/market/stablecoins?include=history');
    expect(res.status).toBe(200);
    const full = (await res.json()) as Coins;
    expectSchema('v1/market-stablecoins.schema.json', full);
    const byId = new Map(core.market.coins.map((c) => [c.id, c]));
    let points = 0;
    for (const c of full.data.stablecoins) {
      expect(c.market_cap['history']).toEqual(byId.get(c.id)!.market_cap.history);
      expect(c.circulating_supply['history']).toEqual(byId.get(c.id)!.circulating_supply.history);
      points += (c.market_cap['history'] as unknown[]).length;
    }
    expect(points).toBeGreaterThan(0);
    // Filters combine with include.
    const eur = (await (
      await get('/v1/market/stablecoins?include=history&peg_currency=EUR')
    ).json()) as Coins;
    expect(eur.data.stablecoins.length).toBeGreaterThan(0);
    expect(eur.data.stablecoins.every((c) => Array.isArray(c.market_cap['history']))).toBe(true);
  });
});

describe('the OpenAPI document', () => {
  it('declares every new parameter with an example and the new problems', async () => {
    const doc = (await (await fetch(`${fast.url}/openapi.json`)).json()) as {
      paths: Record<
        string,
        {
          get: {
            parameters: { name?: string; example?: string }[];
            responses: Record<string, unknown>;
          };
        }
      >;
    };
    const names = (p: string) =>
      new Map(doc.paths[p]!.get.parameters.filter((x) => x.name).map((x) => [x.name!, x]));
    const lookup = names('/v1/registry/asset');
    for (const n of ['tfin', 'isin', 'contract', 'dti', 'include'])
      expect(lookup.get(n)?.example, n).toBeTruthy();
    expect(doc.paths['/v1/registry/asset']!.get.responses['409']).toBeDefined();
    const listed = names('/v1/registry/assets');
    for (const n of ['lei', 'isin', 'lifecycle_status'])
      expect(listed.get(n)?.example, n).toBeTruthy();
    expect(names('/v1/market/stablecoins').get('include')?.example).toBe('history');
    // The examples are real: each answers 200.
    for (const n of ['isin', 'contract']) {
      const ex = lookup.get(n)!.example!;
      expect((await get(`/v1/registry/asset?${n}=${encodeURIComponent(ex)}`)).status, n).toBe(200);
    }
  });
});
