// Issue 34 on the real data: MiCA authorisations beside classifications, register dates by kind,
// and the data report's honesty lines recomputed straight from the YAML files.
import { readFileSync, readdirSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadData } from '../../src/authoring/load.ts';
import { honestyReport } from '../../src/dataset/honesty-report.ts';
import { micaAuthorisation, micaRegistersOf } from '../../src/dataset/mica-authorisation.ts';
import { registerDateKind } from '../../src/dataset/register-dates.ts';
import { RELEASE_DATE } from '../helpers/release-date.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const read = (f: string) => parse(readFileSync(f, 'utf8')) as Record<string, any>;
const coin = (id: string) => read(`data/stablecoins/${id}.yaml`);
const emt = read('data/mica/register/emt.yaml');
const loaded = await loadData('.', RELEASE_DATE);
const registers = micaRegistersOf(loaded.mica);
const assets = loaded.assets.map((a) => a.record);

describe('MiCA authorisation of registry assets', () => {
  it('serves no art or emt classification alone; art is not authorised while the ART register is empty', () => {
    expect(registers.art?.issuers).toEqual([]);
    for (const a of assets) {
      const auth = micaAuthorisation(a, registers);
      if (a.mica.status === 'art') expect(auth.status, a.tfin).toBe('not_authorised');
      else if (a.mica.status !== 'emt') expect(auth.status, a.tfin).toBe('not_applicable');
      expect(auth.basis.length).toBeGreaterThan(20);
    }
  });
});

describe('register dates', () => {
  it("take each coin's date from its own row and say what it is", () => {
    // SEKAU's row is dated 8 May 2026; the issuer's EURAU row 20 June 2026.
    expect(coin('sekau').mica.authorisation).toMatchObject({
      date: '2026-05-08',
      date_kind: 'white_paper_notification',
    });
    expect(coin('chfau').mica.authorisation.date).toBe('2026-01-19');
    // A bank's licence of 2007 is a licence, not a MiCA date.
    expect(coin('eurod').mica.authorisation).toMatchObject({
      date: '2007-06-26',
      date_kind: 'institution_authorisation',
    });
    // EURAU's row gives a date a year after its paper's notification: what it dates is not stated.
    expect(coin('eurau').mica.authorisation).toMatchObject({
      date: '2026-06-20',
      date_kind: 'not_stated',
    });
    const allUnity = emt.issuers.find((i: { lei: string }) => i.lei === '3912007G8L8CD3HFIV26');
    expect(registerDateKind('2024-06-29', allUnity)).toBe('institution_authorisation');
    expect(registerDateKind('2026-05-08', allUnity)).toBe('white_paper_notification');
  });

  it('no authorised EUR coin shows a pre-MiCA date without saying it is a licence', () => {
    for (const f of readdirSync('data/stablecoins')) {
      const a = read(`data/stablecoins/${f}`).mica.authorisation;
      if (a.date && a.date < '2024-06-30') expect(a.date_kind, f).toBe('institution_authorisation');
      if (a.date) expect(a.date_kind, f).toBeTruthy();
    }
  });

  it('serves two EURR offers, each with its issuer', () => {
    expect(coin('eurr').issuer.lei).toBe('984500AA0OCA9CE0D796');
    expect(coin('eurr-bridge').issuer).toMatchObject({
      issuing_entity: 'Bridge Building S.A.',
      lei: '254900MVWQXMF77YZP65',
    });
    expect(coin('veur').issuer.issuing_entity).toBe('VNX Commodities AG');
  });
});

describe('the honesty lines of the data report', () => {
  const h = honestyReport(assets, loaded.codes!, registers, loaded.datasetDate!);
  it('count near-empty records and known domiciles as the files say', () => {
    const files = [
      ...readdirSync('data/assets')
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => `data/assets/${f}`),
    ];
    const single = files.map(read);
    const domicile = single.filter((r) => r.issuer.jurisdiction !== null).length;
    expect(h.issuer_domicile.of).toBe(assets.length);
    // Series inherit their programme's issuer: at least the single records' domiciles are counted.
    expect(h.issuer_domicile.with).toBeGreaterThanOrEqual(domicile);
    const empty = assets.filter(
      (a) =>
        [
          a.issuer.lei === null,
          a.issuer.jurisdiction === null,
          a.custody.custodian === null,
          a.amount === null,
          a.dates.launch_date === null,
          a.identifiers.isin === null,
          a.ledgers.every((l) => l.contract_address === null),
        ].filter(Boolean).length >= 5,
    ).length;
    expect(h.near_empty).toEqual({ records: empty, of: assets.length });
    expect(h.classification_without_authorisation).toBe(0);
    // Every record that claims a default holds guessed factors; none is counted elsewhere.
    expect(h.guessed_records > 0).toBe(h.guessed_values > 0);
    expect(h.unknown_factors['operational.operating_history']).toBe(
      assets.filter((a) => a.dates.launch_date === null).length,
    );
  });
});
