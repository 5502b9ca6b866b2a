// Endpoints 3 and 4 over real HTTP; every body checked against the published schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, expectSchema } from '../helpers/schemas.ts';
import { DEMO, raw, startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});
const get = (path: string) => fetch(server.url + path, { headers: DEMO });

/* eslint-disable @typescript-eslint/no-explicit-any */
describe('GET /v1/market/stablecoins', () => {
  it('serves at least 60 stablecoins with dominance on one basis summing to 100 %, MiCA ratings and adoption over 24 venues', async () => {
    const res = await get('/v1/market/stablecoins');
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expectSchema('v1/market-stablecoins.schema.json', body);
    expect(body.data.stablecoins.length).toBeGreaterThanOrEqual(60);
    expect(body.data.dominance.basis_kind).toBe('circulating_supply');
    expect(body.data.dominance.reference_date).toBe(body.data.dominance.window.end);
    const sum = body.data.dominance.overall.reduce((n: number, r: any) => n + r.share_pct, 0);
    expect(Math.round(sum * 100)).toBe(10000);
    expect(body.data.venues).toHaveLength(24);
    for (const c of body.data.stablecoins) {
      expect(c.compliance_rating.rating).toMatch(/^[A-E]$/);
      expect(c.adoption.venues_total).toBe(24);
      // A figure has a date and an age, or neither and a reason.
      if (c.market_cap.value === null) {
        expect([c.market_cap.as_of, c.market_cap.age_days]).toEqual([null, null]);
        expect(c.market_cap.value_null_reason).toBeTruthy();
      } else expect(c.market_cap.as_of).toBeTruthy();
      expect(c.sources.length).toBeGreaterThan(0);
    }
    expect(body.meta).toMatchObject({ api_version: 'v1', methodology: { version: '2.1' } });
  });

  it('filters by peg currency and MiCA classification, case-insensitively', async () => {
    const eur = (await (await get('/v1/market/stablecoins?peg_currency=eur')).json()) as any;
    expectSchema('v1/market-stablecoins.schema.json', eur);
    expect(eur.data.stablecoins.length).toBeGreaterThan(0);
    expect(eur.data.stablecoins.every((c: any) => c.peg_currency === 'EUR')).toBe(true);
    expect(eur.meta.count).toBe(eur.data.stablecoins.length);
    const emt = (await (await get('/v1/market/stablecoins?mica_classification=EMT')).json()) as any;
    expect(emt.data.stablecoins.every((c: any) => c.mica.classification === 'emt')).toBe(true);
    // Authorised EUR e-money tokens, beside the classification: no client-side filtering.
    const authorised = (await (
      await get(
        '/v1/market/stablecoins?peg_currency=EUR&mica_classification=emt&mica_authorisation=authorised',
      )
    ).json()) as any;
    expect(authorised.data.stablecoins.length).toBeGreaterThan(0);
    expect(
      authorised.data.stablecoins.every(
        (c: any) => c.mica.authorisation.status === 'authorised' && c.peg_currency === 'EUR',
      ),
    ).toBe(true);
    expect(authorised.data.stablecoins.length).toBeLessThan(
      eur.data.stablecoins.filter((c: any) => c.mica.classification === 'emt').length,
    );
  });

  it('refuses unknown parameters and values with a 400 that lists what is allowed', async () => {
    const p = await expectProblem(
      await get('/v1/market/stablecoins?peg=USD'),
      400,
      'unknown_parameter',
    );
    expect(p['allowed']).toEqual([
      'peg_currency',
      'mica_classification',
      'mica_authorisation',
      'q',
      'include',
      'changed_since',
      'dataset_version',
      'format',
      'delivery',
    ]);
    await expectProblem(
      await get('/v1/market/stablecoins?peg_currency=DOLLAR'),
      400,
      'invalid_parameter',
    );
    // Any ISO 4217 code is a valid peg currency; one no coin is pegged to selects none.
    const none = (await (await get('/v1/market/stablecoins?peg_currency=JPY')).json()) as any;
    expect(none.data.stablecoins).toEqual([]);
  });
});

describe('GET /v1/compliance/mica-status', () => {
  it('serves EMT/ART/CASP/DLT Pilot indicators, 27 member-state scores with components and 42 jurisdictions', async () => {
    const body = (await (await get('/v1/compliance/mica-status')).json()) as any;
    expectSchema('v1/compliance-mica-status.schema.json', body);
    expect(body.data.categories.map((c: any) => c.code)).toEqual([
      'EMT',
      'ART',
      'CASP',
      'DLT_PILOT',
    ]);
    for (const c of body.data.categories) {
      expect(c.authorised_entities.as_of).toBeTruthy();
      expect(c.key_dates.length).toBeGreaterThan(0);
    }
    expect(body.data.member_states).toHaveLength(27);
    for (const s of body.data.member_states) {
      expect(s.readiness.score).toBeGreaterThanOrEqual(0);
      expect(Object.keys(s.readiness.components)).toHaveLength(6);
    }
    expect(body.data.coverage.jurisdictions).toBe(42);
  });

  it('filters by member state case-insensitively; a non-member is a 404 naming the 27', async () => {
    const de = (await (await get('/v1/compliance/mica-status?member_state=de')).json()) as any;
    expectSchema('v1/compliance-mica-status.schema.json', de);
    expect(de.data.member_states.map((s: any) => s.iso)).toEqual(['DE']);
    const ch = await expectProblem(
      await get('/v1/compliance/mica-status?member_state=CH'),
      404,
      'member_state_not_found',
    );
    expect(ch['allowed']).toHaveLength(27);
    await expectProblem(
      await get('/v1/compliance/mica-status?member_state=Germany'),
      400,
      'invalid_parameter',
    );
  });

  it('supports conditional requests on the prebuilt bytes', async () => {
    const first = await raw(`${server.url}/v1/compliance/mica-status`);
    const again = await raw(`${server.url}/v1/compliance/mica-status`, {
      headers: { 'if-none-match': first.headers['etag'] as string },
    });
    expect(again.status).toBe(304);
  });
});
