// Series under programmes: a series record inherits what its programme states once (issuer,
// custody, MiCA status, settlement, risk factors) and keeps its own TFIN, ticker, underlying,
// contracts, ISIN and sources; the registry list filters by kind and by programme.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadData } from '../../src/authoring/load.ts';
import { resolveAllSeries, resolveSeries } from '../../src/authoring/series.ts';
import { seriesRecord, type SeriesRecord } from '../../src/domain/asset.ts';
import { assetProfile } from '../../src/dataset/asset-shapes.ts';
import { indexRow } from '../../src/dataset/registry-index.ts';
import { selectRows } from '../../src/api/registry-list.ts';
import type { DataProblem } from '../../src/authoring/problems.ts';
import type { YamlFile } from '../../src/dataset/loaded.ts';
import { RELEASE_DATE } from '../helpers/release-date.ts';

const root = path.resolve(import.meta.dirname, '../..');
const loaded = await loadData(root, RELEASE_DATE);
const PROGRAMME = 'TFIN-STRU-SOL-2025-0001';
const programme = loaded.assets.find((a) => a.record.tfin === PROGRAMME)!.record;

const series: SeriesRecord = seriesRecord.parse({
  tfin: 'TFIN-STRU-SOL-2025-9001',
  programme: PROGRAMME,
  name: 'Example xStock',
  short_name: 'EXMPx',
  description: null,
  underlying: { name: 'Example Inc. common stock', ticker: 'EXMP', isin: null },
  ledgers: [
    {
      ledger: 'SOL',
      token_standard: 'SPL',
      contract_address: 'XsbEhLAtcf6HdfpFZ5xEMdqW8nfAvcsP5bdudRLJzJp',
      contract_address_null_reason: null,
    },
  ],
  identifiers: { isin: 'CH1436219245', cusip: null, figi: null, null_reason: null },
  validation: { level: 'unverified', basis: 'The address comes from an aggregator configuration.' },
  dates: { launch_date: null, launch_null_reason: 'No source dates the launch of this token.' },
  lifecycle_status: 'active',
  sources: [
    {
      id: 'example-series-source',
      kind: 'data_aggregator',
      title: 'Example',
      publisher: 'Example',
      url: 'https://example.com/',
      accessed: '2026-11-22',
      published: null,
    },
  ],
  as_of: '2026-08-22',
});

const file = (name: string): YamlFile => ({ file: name, value: {}, locate: () => null });

describe('series under a programme', () => {
  it('inherits what the programme states once and keeps its own facts', () => {
    const r = resolveSeries(series, programme);
    expect(r.kind).toBe('series');
    expect(r.programme).toBe(PROGRAMME);
    for (const inherited of ['issuer', 'custody', 'mica', 'settlement', 'risk_factors'] as const)
      expect(r[inherited]).toEqual(programme[inherited]);
    expect(r.tfic).toBe(programme.tfic);
    expect(r.tfin).toBe(series.tfin);
    expect(r.short_name).toBe('EXMPx');
    expect(r.ledgers).toEqual(series.ledgers);
    expect(r.identifiers.isin).toBe('CH1436219245');
    expect(r.validation.level).toBe('unverified');
    expect(r.dates.launch_date).toBeNull();
    expect(r.dates.maturity_date).toBe(programme.dates.maturity_date);
    expect(r.sources[0]!.id).toBe('example-series-source');
    expect(r.sources.map((s) => s.id)).toEqual(
      expect.arrayContaining(programme.sources.map((s) => s.id)),
    );
  });

  it('refuses a series whose programme is missing or not a programme', () => {
    const problems: DataProblem[] = [];
    const assets = loaded.assets.filter((a) => a.record.kind !== 'series');
    const single = assets.find((a) => a.record.kind === undefined)!.record.tfin;
    const out = resolveAllSeries(
      assets,
      [
        { file: file('a.yaml'), record: { ...series, programme: 'TFIN-FUND-ETH-2099-0001' } },
        { file: file('b.yaml'), record: { ...series, programme: single } },
        { file: file('c.yaml'), record: series },
      ],
      problems,
    );
    expect(out.map((o) => o.record.tfin)).toEqual([series.tfin]);
    expect(problems.map((p) => [p.file, p.rule])).toEqual([
      ['a.yaml', 'series-programme'],
      ['b.yaml', 'series-programme'],
    ]);
    expect(problems[1]!.fix).toContain('kind: programme');
  });

  it('is served with its kind and programme, and filtered by them', () => {
    const codes = loaded.codes!;
    const rows = [programme, resolveSeries(series, programme)].map((r) =>
      indexRow(assetProfile(r, codes, '2026-11-22')),
    );
    const profile = assetProfile(resolveSeries(series, programme), codes, '2026-11-22');
    expect(profile.kind).toBe('series');
    expect(profile.programme).toBe(PROGRAMME);
    expect(profile.underlying?.ticker).toBe('EXMP');
    expect(profile.dates.launch_null_reason).toContain('No source');
    const core = { registry: { rows } } as unknown as Parameters<typeof selectRows>[0];
    expect(selectRows(core, { kind: 'series' }).map((r) => r.tfin)).toEqual([series.tfin]);
    expect(selectRows(core, { kind: 'programme' }).map((r) => r.tfin)).toEqual([PROGRAMME]);
    expect(selectRows(core, { programme: PROGRAMME }).map((r) => r.tfin)).toEqual([series.tfin]);
    expect(selectRows(core, { kind: 'asset' })).toEqual([]);
  });
});
