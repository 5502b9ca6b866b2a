// Issue #15: q= on the registry list and the stablecoins (case- and accent-insensitive, ranked),
// sort=amount_usd with amount.value_usd and its FX rate beside the native amount. Over real
// HTTP against the built server; bodies validated against the published schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readProfiles } from '../../src/dataset/artifact.ts';
import { foldText } from '../../src/dataset/registry-index.ts';
import type { AssetProfile } from '../../src/domain/api.ts';
import { expectSchema } from '../helpers/schemas.ts';
import { DEMO, startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
const profiles: AssetProfile[] = [...readProfiles()];
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

interface AssetList {
  data: {
    tfin: string;
    name: string;
    short_name: string | null;
    amount: { value: number; currency: string; value_usd: number | null; fx: unknown } | null;
  }[];
  meta: { total: number; query: Record<string, string> };
}
async function body<T>(path: string, schema: string): Promise<T> {
  const res = await fetch(server.url + path, { headers: DEMO });
  expect(res.status, path).toBe(200);
  const json = (await res.json()) as T;
  expectSchema(schema, json);
  return json;
}
const list = (q: string) =>
  body<AssetList>(`/v1/registry/assets?${q}`, 'v1/registry-assets.schema.json');
interface Coins {
  data: { stablecoins: { id: string; symbol: string }[] };
}
const coins = (q: string) =>
  body<Coins>(`/v1/market/stablecoins?${q}`, 'v1/market-stablecoins.schema.json');
const fields = (p: AssetProfile) =>
  [p.tfin, p.name, p.short_name, p.issuer.name, p.issuer.sponsor].filter(Boolean) as string[];

describe('q= on the registry list', () => {
  it('ignores case and accents on both sides', async () => {
    const phrase = profiles
      .filter((p) => fields(p).some((f) => foldText(f).includes('societe generale')))
      .map((p) => p.tfin);
    expect(phrase.length).toBeGreaterThan(1);
    const answers = [];
    for (const q of [
      'Société Générale',
      'SOCIETE GENERALE',
      'societe generale',
      'SOCIÉTÉ GÉNÉRALE',
    ]) {
      const body = await list(`q=${encodeURIComponent(q)}&limit=500`);
      expect(
        body.data.map((d) => d.tfin),
        q,
      ).toEqual(expect.arrayContaining(phrase));
      answers.push(body.data.map((d) => d.tfin));
    }
    expect(new Set(answers.map((a) => a.join())).size).toBe(1);
    const zurich = await list(`q=${encodeURIComponent('zurich')}`);
    expect(zurich.data.some((d) => d.tfin === 'TFIN-DEBT-SDX-2023-0001')).toBe(true);
  });

  it('ranks an asset whose whole field is the text first; with sort= the sort wins', async () => {
    // "bond-i" is one asset's whole short name, and words inside other names ("… bond issued …").
    const body = await list('q=BOND-I&limit=500');
    expect(body.data[0]!.short_name).toBe('bond-i');
    expect(body.data.length).toBeGreaterThan(1);
    const sorted = await list('q=usd&sort=tfin&limit=500');
    const tfins = sorted.data.map((d) => d.tfin);
    expect(tfins).toEqual([...tfins].sort());
    expect(tfins.length).toBeGreaterThan(1);
  });
});

describe('q= on the stablecoins', () => {
  it('matches id, symbol, name and issuer, ignoring case and accents, ranked', async () => {
    const sg = await coins(`q=${encodeURIComponent('societe')}`);
    expect(sg.data.stablecoins.map((c) => c.id).sort()).toEqual(['eurcv', 'usdcv']);
    const usdc = await coins('q=USDC');
    expect(usdc.data.stablecoins[0]!.id).toBe('usdc');
    expect(usdc.data.stablecoins.map((c) => c.id)).toContain('usdcv');
    expect((await coins('q=zzzz')).data.stablecoins).toEqual([]);
    const both = await coins('q=euro&peg_currency=EUR');
    expect(both.data.stablecoins.length).toBeGreaterThan(0);
  });
});

describe('amounts in USD and sort=amount_usd', () => {
  it('carry value_usd (and the FX rate for other currencies) beside the native amount', async () => {
    const body = await list('limit=500');
    for (const d of body.data) {
      if (!d.amount) continue;
      if (d.amount.currency === 'USD') {
        expect(d.amount.value_usd).toBe(Math.round(d.amount.value));
        expect(d.amount.fx).toBeNull();
      } else if (d.amount.value_usd !== null) {
        const fx = d.amount.fx as { rate: number; date: string };
        expect(d.amount.value_usd).toBe(Math.round(d.amount.value * fx.rate));
      } else expect(d.amount.fx).toBeNull();
    }
  });

  it('sorts by the USD amount, assets without one last in both directions', async () => {
    for (const sort of ['amount_usd', '-amount_usd']) {
      const body = await list(`sort=${sort}&limit=500`);
      const values = body.data.map((d) => d.amount?.value_usd ?? null);
      const known = values.filter((v): v is number => v !== null);
      expect(values.slice(0, known.length)).toEqual(known);
      expect(values.slice(known.length).every((v) => v === null)).toBe(true);
      const want = [...known].sort((a, b) => (sort === 'amount_usd' ? a - b : b - a));
      expect(known).toEqual(want);
      expect(known.length).toBeGreaterThan(1);
    }
  });
});
