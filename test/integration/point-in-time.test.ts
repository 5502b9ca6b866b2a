// Issue #26: `dataset_version=` answers from committed releases only. A record is deleted from a
// copy of the data and the copy rebuilt: the committed release still answers as it did (the
// deleted asset included), the edited data is served under its own version only as the current
// one, and once the edit is reverted and rebuilt its version is gone. Answers go through the same
// pure answer functions the server and Astro call (src/api/answers.ts).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { answerState, ANSWERS, type Answer, type AnswerState } from '../../src/api/answers.ts';
import { assetProfileBody } from '../../src/api/bodies.ts';
import { openReleases, releasesDir } from '../../src/api/releases.ts';
import { registryRuntime } from '../../src/api/registry-runtime.ts';
import { readDataset, readProfiles } from '../../src/dataset/artifact.ts';
import { installReleases } from '../../src/dataset/release-bodies.ts';
import {
  currentVersion,
  DEFAULT_RELEASES_DIR,
  readManifests,
} from '../../src/dataset/release-manifest.ts';

const scratch = mkdtempSync(path.join(tmpdir(), 'tai-pit-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const committed = currentVersion(process.cwd());
const deleted = 'TFIN-CMDY-ETH-2019-0001';

/** `npm run data:build` of the data under root, the committed releases installed beside it. */
function build(root: string): AnswerState {
  const file = path.join(root, 'build', 'dataset.json');
  execFileSync(process.execPath, ['scripts/data.ts', 'build', '--root', root, '--out', file], {
    stdio: 'ignore',
  });
  const core = readDataset(file);
  installReleases(readManifests(), DEFAULT_RELEASES_DIR, releasesDir(file), core.dataset_version);
  const bodies = new Map([...readProfiles(file)].map((p) => [p.tfin, assetProfileBody(core, p)]));
  const registry = registryRuntime(core, (t) => bodies.get(t), bodies);
  return answerState(registry, openReleases(file, core.dataset_version));
}

const ask = async (
  state: AnswerState,
  p: '/v1/registry/asset' | '/v1/registry/assets',
  q: string,
) => {
  const answer = (await ANSWERS[p]({ search: `?${q}` }, state)) as Answer;
  if (!answer.ok) return { status: 'problem', body: answer.problem } as const;
  const body = answer.body;
  const text = 'text' in body ? body.text : body.bodyFor('identity');
  return { status: 'ok', body: JSON.parse(text.toString()) } as const;
};

describe('point-in-time reads come from committed releases only', { timeout: 120_000 }, () => {
  const root = path.join(scratch, 'edited');
  cpSync('data', path.join(root, 'data'), { recursive: true });
  rmSync(path.join(root, 'data', 'assets', `${deleted}.yaml`));

  it('after a record is deleted and the data rebuilt, the committed release answers as it did', async () => {
    const originalRoot = path.join(scratch, 'original');
    cpSync('data', path.join(originalRoot, 'data'), { recursive: true });
    const original = build(originalRoot);
    const edited = build(root);
    const local = edited.core.dataset_version;
    expect(local).not.toBe(committed);
    expect(readManifests().map((m) => m.dataset_version)).not.toContain(local);

    // The current (edited) data no longer has the asset; the committed release still does.
    expect((await ask(edited, '/v1/registry/asset', `tfin=${deleted}`)).status).toBe('problem');
    const then = await ask(
      edited,
      '/v1/registry/asset',
      `tfin=${deleted}&dataset_version=${committed}`,
    );
    expect(then.status).toBe('ok');
    expect(then.body.meta.dataset_version).toBe(committed);
    // As the committed release says it (its body, checked against the manifest's digest)…
    const kept = [...readProfiles(path.join(root, 'build', 'releases', `${committed}.json`))];
    const profile = structuredClone(kept.find((p) => p.tfin === deleted)!);
    delete profile.amount?.history; // served with include=history only
    expect(then.body.data).toEqual(profile);
    // …which is what the data of that release gives (same data, same record).
    const before = await ask(original, '/v1/registry/asset', `tfin=${deleted}`);
    expect(then.body.data.name).toBe(before.body.data.name);
    expect(then.body.data.amount?.value).toBe(before.body.data.amount?.value);
    const listThen = await ask(
      edited,
      '/v1/registry/assets',
      `dataset_version=${committed}&limit=500`,
    );
    const listNow = await ask(edited, '/v1/registry/assets', 'limit=500');
    expect(listThen.body.meta.total).toBe(listNow.body.meta.total + 1);

    // The local edit is served under no version id but the current one.
    expect(edited.releases!.versions()).toEqual([
      local,
      ...readManifests()
        .filter((m) => m.body)
        .map((m) => m.dataset_version)
        .reverse(),
    ]);
  });

  it('once the edit is reverted and rebuilt, its version is unknown and the answer lists the available ones', async () => {
    const edited = build(root).core.dataset_version;
    cpSync(
      path.join('data', 'assets', `${deleted}.yaml`),
      path.join(root, 'data', 'assets', `${deleted}.yaml`),
    );
    const reverted = build(root);
    expect(reverted.core.dataset_version).toBe(committed);
    const gone = await ask(reverted, '/v1/registry/assets', `dataset_version=${edited}`);
    expect(gone.status).toBe('problem');
    expect(gone.body).toMatchObject({ code: 'dataset_version_not_found' });
    expect(gone.body.extensions.allowed).toContain(committed);
    expect(gone.body.extensions.allowed).not.toContain(edited);
  });
});
