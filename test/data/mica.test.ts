// Recomputes the MiCA numbers straight from the YAML files, independently of src/dataset: the
// member-state counts from the register files, the readiness scores with the transitional
// periods; checks that the response names the entities behind the counts; and pins what
// data:check says when a count disagrees with the register or a transitional period is missing.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { transitionalPeriodsFile } from '../../src/domain/mica.ts';
import { buildDataset } from '../../src/dataset/artifact.ts';
import { micaStatusBody } from '../../src/api/bodies.ts';
import { loadData } from '../../src/authoring/load.ts';
import { MICA_PARAMS } from '../../src/api/mica-query.ts';
import { readParams } from '../../src/api/params.ts';
import { EU_MEMBER_STATES } from '../../src/authoring/rules/shared.ts';
import { RELEASE_DATE } from '../helpers/release-date.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
const read = (f: string) => parse(readFileSync(path.resolve(f), 'utf8')) as any;
const readinessTable = read('data/codes/readiness.yaml');
const states: any[] = readdirSync('data/mica/member-states').map((f) =>
  read(`data/mica/member-states/${f}`),
);
const jurisdictions: any[] = read('data/jurisdictions.yaml').jurisdictions;
const categories: any[] = read('data/mica/categories.yaml').categories;
const transitional = read('data/mica/transitional-periods.yaml');
const casps = read('data/mica/register/casps.yaml');
const emt = read('data/mica/register/emt.yaml');
const art = read('data/mica/register/art.yaml');

const loaded = await loadData(path.resolve('.'), RELEASE_DATE);
const dataset = buildDataset(
  { ...loaded, codes: loaded.codes!, datasetDate: loaded.datasetDate! },
  'test',
  new Date(),
);
const body = micaStatusBody(dataset)!;
const served = (iso: string) => body.data.member_states.find((s) => s.iso === iso)!;

describe('MiCA data', () => {
  it('has the four categories, all 27 member states and 42 jurisdictions counted from the data', () => {
    expect(categories.map((c) => c.code)).toEqual(['EMT', 'ART', 'CASP', 'DLT_PILOT']);
    expect(states).toHaveLength(EU_MEMBER_STATES);
    expect(jurisdictions).toHaveLength(42);
    expect(body.data.coverage.jurisdictions).toBe(jurisdictions.length);
    expect(body.data.member_states).toHaveLength(EU_MEMBER_STATES);
  });

  it('per-state counts add up to the EU totals for the same date', () => {
    const field: Record<string, string> = {
      EMT: 'emt_issuers',
      ART: 'art_issuers',
      CASP: 'authorised_casps',
      DLT_PILOT: 'dlt_pilot_infrastructures',
    };
    for (const c of categories) {
      const same = states.filter((s) => s.counts_as_of === c.authorised_entities.as_of);
      if (same.length === EU_MEMBER_STATES)
        expect(
          same.reduce((n, s) => n + s[field[c.code]!], 0),
          c.code,
        ).toBe(c.authorised_entities.count);
    }
  });

  it('member-state counts equal the register files: active CASPs (LEI + name), EMT and ART issuers (LEI)', () => {
    for (const s of states) {
      const home = (list: any[]) => list.filter((e) => e.home_member_state === s.iso);
      expect(s.authorised_casps, s.iso).toBe(
        new Set(
          home(casps.entities)
            .filter((e) => !e.withdrawn)
            .map((e) => `${e.lei}|${e.name}`),
        ).size,
      );
      expect(s.emt_issuers, s.iso).toBe(
        new Set(
          home(emt.issuers)
            .filter((i) => !i.authorisation_ended)
            .map((i) => i.lei),
        ).size,
      );
      expect(s.art_issuers, s.iso).toBe(home(art.issuers).length);
    }
  });

  it('computes every readiness score with the national transitional period, else the notified one', () => {
    const tier = (tiers: any[], n: number) =>
      tiers.filter((t) => n >= t.min).sort((a, b) => b.min - a.min)[0].points;
    for (const s of states) {
      const t = transitional.states.find((x: any) => x.iso === s.iso);
      const m = t.national.months ?? t.notified.months;
      const period =
        m === null
          ? readinessTable.transitional_period.unknown
          : (readinessTable.transitional_period.at_most_months
              .filter((x: any) => m <= x.months)
              .sort((a: any, b: any) => a.months - b.months)[0]?.points ?? 0);
      const score =
        (s.competent_authorities.length ? readinessTable.competent_authority_designated : 0) +
        (s.national_measures.adopted ? readinessTable.national_measures_adopted : 0) +
        period +
        tier(readinessTable.authorised_casps, s.authorised_casps) +
        tier(readinessTable.emt_issuers, s.emt_issuers) +
        tier(readinessTable.dlt_pilot_infrastructures, s.dlt_pilot_infrastructures);
      const view = served(s.iso);
      expect(view.readiness.score, s.iso).toBe(score);
      expect(view.transitional_period.months_scored, s.iso).toBe(m);
      expect(view.transitional_period.national, s.iso).toEqual(t.national);
      expect(view.transitional_period.notified, s.iso).toEqual(t.notified);
    }
  });
});

describe('MiCA status response names the entities behind the counts', () => {
  it("lists each state's authorised CASPs and EMT issuers, as many as its counts", () => {
    for (const s of states) {
      const view = served(s.iso);
      expect(view.entities.casps, s.iso).toHaveLength(s.authorised_casps);
      expect(view.entities.emt_issuers, s.iso).toHaveLength(s.emt_issuers);
      expect(view.entities.art_issuers, s.iso).toHaveLength(s.art_issuers);
    }
    expect(served('AT').entities.casps.find((c) => c.lei === '5493007WZ7IFULIL8G21')).toEqual({
      lei: '5493007WZ7IFULIL8G21',
      name: 'Bitpanda GmbH',
      services: ['a', 'c', 'd', 'e', 'f', 'g', 'j'],
      authorised: '2025-04-09',
    });
    const circle = served('FR').entities.emt_issuers.find(
      (i) => i.name === 'Circle Internet Financial Europe SAS',
    )!;
    expect(circle.tokens.map((t) => t.dti_ffg)).toEqual(['13XTMPZT3', 'TJWK5QTRK']);
    expect(circle.tokens[0]!.dti).toContain('FJM594L0V');
  });

  it('carries the version of each register file, without addresses', () => {
    expect(body.data.register.casps).toEqual({
      source_url: 'https://www.esma.europa.eu/sites/default/files/2024-12/CASPS.csv',
      file_date: '2026-08-17',
      last_modified: null,
      sha256: casps.provenance.sha256,
      rows: 329,
      imported: casps.provenance.imported,
    });
    expect(body.data.register.emt.file_date).toBe('2026-08-21');
    expect(JSON.stringify(body)).not.toContain('ae_address');
    expect(JSON.stringify(body)).not.toContain('Stella-Klein-Löw-Weg');
    expect(served('AT').sources.some((s) => 'provenance' in s)).toBe(false);
  });
});

describe('member_state parameter', () => {
  it('accepts EL as an alias of GR, and says so in its description', () => {
    const read = (q: string) => readParams(new URLSearchParams(q), MICA_PARAMS);
    expect(read('member_state=el')).toEqual({ ok: true, values: { member_state: 'GR' } });
    expect(read('member_state=GR')).toEqual({ ok: true, values: { member_state: 'GR' } });
    expect(
      micaStatusBody(dataset, { member_state: 'GR' })!.data.member_states.map((s) => s.iso),
    ).toEqual(['GR']);
    expect(MICA_PARAMS[0]!.description).toContain('EL (its EU code) is accepted as an alias');
  });
});

// Each case copies and checks the whole data tree (about 500 files with the asset series: ~3 s on
// idle cores): the unit project's 5 s default is too short when other suites share the cores.
describe('data:check on the MiCA files', { timeout: 180_000 }, () => {
  let root: string | null = null;
  afterEach(() => root && rmSync(root, { recursive: true, force: true }));
  const copy = () => {
    root = mkdtempSync(path.join(tmpdir(), 'tai-mica-'));
    cpSync('data', path.join(root, 'data'), { recursive: true });
    return root;
  };
  const problems = async (dir: string, rule: string) =>
    (await loadData(dir, '2026-11-22')).problems
      .filter((p) => p.rule === rule || p.file.includes('transitional'))
      .map(({ file, path: at, message, fix }) => ({ file, path: at, message, fix }));

  it('refuses a count that disagrees with the register file', async () => {
    const dir = copy();
    const file = path.join(dir, 'data/mica/member-states/at.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('authorised_casps: 11', 'authorised_casps: 12'),
    );
    expect(await problems(dir, 'member-state-counts-match-register')).toEqual([
      {
        file: 'data/mica/member-states/at.yaml',
        path: ['authorised_casps'],
        message:
          'is 12, but data/mica/register/casps.yaml lists 11 authorised CASPs (withdrawn excluded) with home member state AT',
        fix: "set it to 11: run npm run data:import -- esma --file <ESMA's CASPS.csv> --write, which writes both",
      },
    ]);
  });

  it('says what to write when the transitional periods are missing', async () => {
    const dir = copy();
    rmSync(path.join(dir, 'data/mica/transitional-periods.yaml'));
    expect(await problems(dir, 'required-file')).toEqual([
      {
        file: 'data/mica/transitional-periods.yaml',
        path: [],
        message: 'is missing',
        fix: 'write data/mica/transitional-periods.yaml: as_of, esma_list (version, source), states (one per EU member state: iso, notified {months, esma_list_version}, national {months, end_date, condition, instrument, source}, note) and sources; schemas/data/transitional-periods.schema.json describes it',
      },
    ]);
  });

  it('names the member states a transitional-periods file lacks (the small valid fixture)', async () => {
    const fixture = 'test/fixtures/importers/esma/transitional-periods.yaml';
    expect(transitionalPeriodsFile.safeParse(read(fixture)).success).toBe(true);
    const dir = copy();
    cpSync(fixture, path.join(dir, 'data/mica/transitional-periods.yaml'));
    const found = await problems(dir, 'transitional-periods-complete');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      file: 'data/mica/transitional-periods.yaml',
      path: ['states'],
    });
    expect(found[0]!.message).toBe(
      'has no entry for BE, BG, CY, CZ, DE, DK, EE, ES, FI, FR, HR, HU, IE, IT, LT, LU, LV, MT, NL, PL, PT, RO, SE, SI, SK',
    );
    expect(found[0]!.fix).toMatch(/^add one entry per missing member state \(as_of, esma_list/);
  });
});

describe('jurisdictions outside the EU carry their own status and sources', () => {
  const STATUSES = ['in_force', 'transition', 'enacted_not_in_force', 'proposed'];

  it('every non-EU jurisdiction has a status, an as_of and at least one source, in the data and the response', () => {
    const nonEu = jurisdictions.filter((j) => j.group !== 'eu');
    expect(nonEu).toHaveLength(15);
    for (const j of nonEu) {
      expect(STATUSES, j.iso).toContain(j.status);
      expect(j.as_of, j.iso).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(j.sources?.length ?? 0, j.iso).toBeGreaterThan(0);
      for (const s of j.sources) expect(s.url, `${j.iso} ${s.id}`).toMatch(/^https?:\/\//);
    }
    const listed = body.data.coverage.list.filter((j) => j.group !== 'eu');
    expect(listed.map((j) => j.iso).sort()).toEqual(nonEu.map((j) => j.iso).sort());
    for (const j of listed) {
      expect(STATUSES, j.iso).toContain(j.status);
      expect(j.as_of, j.iso).toBeTruthy();
      expect(j.sources?.length ?? 0, j.iso).toBeGreaterThan(0);
    }
  });

  // Copies and checks the whole data tree: see the timeout of 'data:check on the MiCA files'.
  it(
    'data:check names the file, path and fix when a non-EU jurisdiction lacks its status',
    { timeout: 180_000 },
    async () => {
      const root = mkdtempSync(path.join(tmpdir(), 'tai-jurisdictions-'));
      try {
        cpSync('data', path.join(root, 'data'), { recursive: true });
        const file = path.join(root, 'data/jurisdictions.yaml');
        const text = readFileSync(file, 'utf8');
        const at = text.indexOf("- iso: 'NO'");
        const status = text.indexOf('\n  status: in_force', at);
        writeFileSync(
          file,
          text.slice(0, status) + text.slice(status + '\n  status: in_force'.length),
        );
        const index = jurisdictions.findIndex((j) => j.iso === 'NO');
        const found = (await loadData(root, '2026-11-22')).problems.filter(
          (p) => p.rule === 'jurisdictions-schema',
        );
        expect(found).toHaveLength(1);
        expect(found[0]).toMatchObject({
          file: 'data/jurisdictions.yaml',
          path: ['jurisdictions', index, 'status'],
        });
        expect(found[0]!.message).toMatch(
          /^must be given for group eea: write "status:" with one of in_force, transition/,
        );
        expect(found[0]!.fix).toContain('only group eu may leave it out');
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  );
});
