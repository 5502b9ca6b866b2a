// Issue #15: point-in-time reads. `dataset_version=` answers as that release did, for the current
// release and the committed ones (build/releases/, installed by the build); such answers are
// immutable; an unknown version is a 404 listing the versions kept. An older release is made
// here from the current one (its first ten assets, another version) and removed afterwards.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDataset } from '../../src/dataset/artifact.ts';
import { releasesDir } from '../../src/api/releases.ts';
import { expectProblem, expectSchema } from '../helpers/schemas.ts';
import { DEMO, raw, startServer, type TestServer } from '../helpers/server.ts';

const datasetFile = path.resolve('build/dataset.json');
const core = readDataset(datasetFile);
const current = core.dataset_version;
const old = '2026-01-01.0123456789ab';
const dir = releasesDir(datasetFile);
const oldCore = path.join(dir, `${old}.json`);
const oldProfiles = path.join(dir, `${old}.assets.ndjson`);
const kept = 10;
let fast: TestServer;
let astro: TestServer;

beforeAll(async () => {
  mkdirSync(dir, { recursive: true });
  const lines = readFileSync(datasetFile.replace(/\.json$/, '.assets.ndjson'), 'utf8')
    .split('\n')
    .slice(0, kept);
  writeFileSync(oldProfiles, lines.join('\n') + '\n');
  const rows = core.registry.rows.slice(0, kept);
  writeFileSync(
    oldCore,
    JSON.stringify({
      ...core,
      dataset_version: old,
      registry: { ...core.registry, rows, coverage: { ...core.registry.coverage, assets: kept } },
    }),
  );
  [fast, astro] = await Promise.all([startServer(), startServer({ FAST_PATH: 'off' })]);
});
afterAll(async () => {
  await Promise.all([fast?.stop(), astro?.stop()]);
  rmSync(oldCore, { force: true });
  rmSync(oldProfiles, { force: true });
});

const get = (p: string, server = fast) => raw(server.url + p);
interface Answer {
  data: { tfin: string }[] & Record<string, unknown>;
  meta: { dataset_version: string; total: number };
  code?: string;
}
const json = (r: { body: Buffer }) => JSON.parse(r.body.toString('utf8')) as Answer;

describe('dataset_version', () => {
  it('answers the list as the older release did, immutable', async () => {
    const res = await get(`/v1/registry/assets?dataset_version=${old}&limit=500`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    const body = json(res);
    expectSchema('v1/registry-assets.schema.json', body);
    expect(body.meta.dataset_version).toBe(old);
    expect(body.meta.total).toBe(kept);
    expect(body.data.map((d) => d.tfin)).toEqual(
      core.registry.rows.slice(0, kept).map((r) => r.tfin),
    );
    const csv = await raw(`${fast.url}/v1/registry/assets?dataset_version=${old}&format=csv`);
    expect(csv.body.toString().trimEnd().split('\r\n').length).toBe(kept + 1);
    const coins = await get(`/v1/market/stablecoins?dataset_version=${old}`);
    expect(json(coins).meta.dataset_version).toBe(old);
    expectSchema('v1/market-stablecoins.schema.json', json(coins));
  });

  it('answers the current release as without the parameter, and says the answer is immutable', async () => {
    const named = await get(`/v1/compliance/mica-status?dataset_version=${current}`);
    const plain = await get('/v1/compliance/mica-status');
    expect(named.headers['cache-control']).toContain('immutable');
    expect(plain.headers['cache-control']).not.toContain('immutable');
    const a = json(named);
    const b = json(plain);
    expect(a.data).toEqual(b.data);
    expect(a.meta.dataset_version).toBe(current);
  });

  it('looks assets up in the named release, the fast path and Astro alike', async () => {
    const inOld = core.registry.rows[0]!.tfin;
    const notInOld = core.registry.rows[kept + 1]!.tfin;
    for (const server of [fast, astro]) {
      const hit = await get(`/v1/registry/asset?tfin=${inOld}&dataset_version=${old}`, server);
      expect(hit.status).toBe(200);
      expect(json(hit).meta.dataset_version).toBe(old);
      expectSchema('v1/registry-asset.schema.json', json(hit));
      const miss = await get(`/v1/registry/asset?tfin=${notInOld}&dataset_version=${old}`, server);
      expect(miss.status).toBe(404);
      expect(json(miss).code).toBe('asset_not_found');
    }
    const t = `/v1/registry/asset?tfin=${inOld}&include=history&dataset_version=${old}`;
    const [a, again, b] = [await get(t), await get(t), await get(t, astro)];
    expect(a.body.equals(b.body)).toBe(true);
    expect(again.body.equals(a.body)).toBe(true);
    expect(again.headers['cache-control']).toContain('immutable');
  });

  it('names the older release in its headers, the fast path and Astro alike (issue #41)', async () => {
    const digest = `sha-256=${createHash('sha256').update(readFileSync(oldCore)).digest('hex')}`;
    for (const target of [
      `/v1/registry/asset?tfin=${core.registry.rows[0]!.tfin}&dataset_version=${old}`,
      `/v1/registry/assets?limit=2&dataset_version=${old}`,
    ])
      for (const server of [fast, astro]) {
        const r = await get(target, server);
        expect(r.status, target).toBe(200);
        expect(r.headers['dataset-version'], target).toBe(old);
        expect(r.headers['dataset-generated-at'], target).toBe(core.generated_at);
        expect(r.headers['dataset-digest'], target).toBe(digest);
      }
    // The served release's answers name it, without the older release's fields.
    const current = await get(`/v1/registry/assets?limit=2`, astro);
    expect(current.headers['dataset-version']).toBe(core.dataset_version);
    expect(current.headers['dataset-digest']).toBeUndefined();
  });

  it('answers an unknown version with 404 and the versions kept', async () => {
    for (const p of [
      '/v1/registry/assets?dataset_version=2020-01-01.000000000000',
      '/v1/registry/asset?tfin=TFIN-DEBT-ETH-2021-0001&dataset_version=2020-01-01.000000000000',
    ]) {
      const body = await expectProblem(
        await fetch(fast.url + p, { headers: DEMO }),
        404,
        'dataset_version_not_found',
      );
      expect(body['allowed']).toEqual(expect.arrayContaining([current, old]));
      expect((body['allowed'] as string[])[0]).toBe(current);
    }
    await expectProblem(
      await fetch(`${fast.url}/v1/registry/assets?dataset_version=latest`, { headers: DEMO }),
      400,
      'invalid_parameter',
    );
  });
});
