// Issue #28 item 3, #39 item 1: one pass over the built dataset (src/authoring/prebuilt-bodies.ts,
// the emitter) writes every prebuilt body, straight into dist/client. Each must be the bytes the request-time functions make from the whole
// registry in memory (not the pass's own streaming shortcuts), and the build must serve exactly
// the pass's bytes. Runs on the built dataset (`npm run build`).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { answerDataset } from '../../src/api/answers.ts';
import { assetProfileBody } from '../../src/api/bodies.ts';
import { BULK_FORMATS, bulkFile, bulkText, REGISTRY_COLUMNS } from '../../src/api/bulk.ts';
import { selectRows } from '../../src/api/registry-list.ts';
import { datasetViews } from '../../src/api/dataset-views.ts';
import { BULK_ROUTES, PRERENDERED_VIEWS } from '../../src/api/operations.ts';
import { writePrebuiltBodies } from '../../src/authoring/prebuilt-bodies.ts';
import { readDataset, readProfiles } from '../../src/dataset/artifact.ts';
import {
  INTERNAL_FILES,
  PROFILES_PACK,
  PROFILE_BODIES_FILE,
  SUMMARIES_FILE,
} from '../../src/dataset/built-files.ts';
import { HISTORIES_FILE, openHistories } from '../../src/dataset/history-file.ts';
import { openPack } from '../../src/dataset/profile-pack.ts';
import { openSummaries } from '../../src/dataset/summary-file.ts';
import { assetSummary } from '../../src/dataset/asset-shapes.ts';
import { contentTag } from '../../src/lib/compression.ts';
import { walkFiles } from '../../src/lib/walk.ts';

const dataset = path.resolve('build/dataset.json');
const core = readDataset(dataset);
const profiles = [...readProfiles(dataset)];
const byTfin = new Map(profiles.map((p) => [p.tfin, p]));
const everyProfile = { core, summaryOf: (tfin: string) => assetSummary(byTfin.get(tfin)!) };
const dir = mkdtempSync(path.join(tmpdir(), 'tai-bodies-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const result = await writePrebuiltBodies(core, profiles, dir);
const written = (rel: string) => readFileSync(path.join(dir, ...rel.split('/')));

describe('the bodies pass', () => {
  it('writes every profile', () => {
    expect(profiles.length).toBeGreaterThan(100);
    expect(result.profiles).toBe(profiles.length);
  });

  it("writes each profile's default body, in the pack with its codings and as a line", () => {
    const lines = written(PROFILE_BODIES_FILE).toString().split('\n').filter(Boolean);
    const pack = openPack(path.join(dir, PROFILES_PACK));
    expect(lines).toHaveLength(profiles.length);
    expect(pack.entries).toHaveLength(profiles.length);
    profiles.forEach((p, i) => {
      const body = assetProfileBody(core, p);
      expect(lines[i]).toBe(`${p.tfin}\t${body}`);
      const entry = pack.entries[i]!;
      const codings = pack.read(entry);
      expect(entry.tfin).toBe(p.tfin);
      expect(entry.tag).toBe(contentTag(Buffer.from(body)));
      expect(gunzipSync(codings.gzip).toString()).toBe(body);
      expect(codings.identity?.toString()).toBe(body);
    });
  });

  it('writes the list summaries and the amount histories', () => {
    const summaries = openSummaries(path.join(dir, SUMMARIES_FILE));
    const histories = openHistories(path.join(dir, HISTORIES_FILE));
    expect(summaries.count).toBe(profiles.length);
    profiles.forEach((p, i) => {
      expect(summaries.read(i).toString()).toBe(JSON.stringify(assetSummary(p)));
      expect(histories.of(p.tfin)).toEqual(p.amount?.history ?? []);
    });
    expect(histories.size).toBe(result.histories);
    expect(result.histories).toBe(profiles.filter((p) => p.amount?.history?.length).length);
  });

  it("writes each dataset operation's unfiltered JSON as its answer with every profile at hand", () => {
    const views = datasetViews(core, everyProfile);
    for (const route of PRERENDERED_VIEWS) {
      const answer = answerDataset(
        route,
        { search: '' },
        { core, releases: null, views, releaseViews: () => null },
      );
      if (!answer.ok || !('text' in answer.body)) throw new Error(`${route} failed`);
      expect(written(route.slice(1)).toString(), route).toBe(String(answer.body.text));
    }
  });

  it("writes every operation's exports as its view answers them (the registry's streamed)", () => {
    const views = datasetViews(core, everyProfile);
    for (const route of BULK_ROUTES)
      for (const format of BULK_FORMATS) {
        const computed = views.get(route)!.compute({}, format);
        if (!computed.ok) throw new Error(`${route} ${format} failed`);
        expect(written(bulkFile(route, format)).toString(), `${route} ${format}`).toBe(
          String(computed.text),
        );
      }
    // The registry's, against its records written by the format itself (no rows prebuilt).
    const summaries = selectRows(core, {}).map((row) => everyProfile.summaryOf(row.tfin));
    for (const format of BULK_FORMATS)
      expect(written(bulkFile('/v1/registry/assets', format)).toString()).toBe(
        bulkText(format, REGISTRY_COLUMNS, summaries),
      );
  });

  it('is what the build serves: dist/client holds the same bytes', () => {
    for (const rel of [...result.bodies, ...INTERNAL_FILES])
      expect(
        readFileSync(path.join('dist', 'client', ...rel.split('/'))).equals(written(rel)),
        rel,
      ).toBe(true);
  });

  it('refuses profiles that are not the registry index in its order, and leaves nothing of its own', async () => {
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'tai-bodies-bad-'));
    // What else is in dist/client (Astro's pages) is not the pass's to remove.
    writeFileSync(path.join(elsewhere, 'index.html'), 'page');
    try {
      const swapped = [profiles[1]!, profiles[0]!, ...profiles.slice(2)];
      await expect(writePrebuiltBodies(core, swapped, elsewhere)).rejects.toThrow(
        /registry index has/,
      );
      await expect(writePrebuiltBodies(core, profiles.slice(1), elsewhere)).rejects.toThrow(
        /registry index has/,
      );
      await expect(writePrebuiltBodies(core, profiles.slice(0, -1), elsewhere)).rejects.toThrow(
        /profiles for .* registry rows/,
      );
      expect([...walkFiles(elsewhere)].map((f) => path.relative(elsewhere, f))).toEqual([
        'index.html',
      ]);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
