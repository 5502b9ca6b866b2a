// Issue #14 item 18: a damaged build does not start. The server verifies the sizes and SHA-256
// digests that postbuild wrote (dist/integrity.json) and exits 1 naming the damaged file.
import {
  cpSync,
  realpathSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../helpers/server.ts';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** A copy of the build (dist/ and build/) to damage. */
function copyBuild() {
  const root = mkdtempSync(path.join(tmpdir(), 'tai-integrity-'));
  roots.push(root);
  // dist and build are links to the current release (scripts/build.ts): copy what they name.
  cpSync(realpathSync('dist'), path.join(root, 'dist'), { recursive: true });
  cpSync(realpathSync('build'), path.join(root, 'build'), { recursive: true });
  return {
    root,
    env: {
      DIST_DIR: path.join(root, 'dist'),
      TAI_DATASET: path.join(root, 'build', 'dataset.json'),
    },
  };
}
async function startFails(env: Record<string, string>): Promise<string> {
  try {
    const s = await startServer(env);
    await s.stop();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('the server started on a damaged build');
}

describe('start-up integrity of the build', () => {
  it('refuses to start on a profile pack truncated to half', async () => {
    const { root, env } = copyBuild();
    const pack = path.join(root, 'dist', 'client', 'internal', 'registry-profiles.pack');
    truncateSync(pack, Math.floor(statSync(pack).size / 2));
    const out = await startFails(env);
    expect(out).toContain('server exited with 1');
    expect(out).toContain('build integrity');
    expect(out).toMatch(/registry-profiles\.pack: \d+ bytes, the build wrote \d+/);
  });

  it('refuses a dataset.json whose content differs from the manifest, even with the same size and version', async () => {
    const { env } = copyBuild();
    const file = env.TAI_DATASET;
    const text = readFileSync(file, 'utf8');
    // Same length, same dataset_version: one letter of the registry changed.
    const at = text.indexOf('"name":"') + 8;
    const swapped = text.slice(0, at) + (text[at] === 'X' ? 'Y' : 'X') + text.slice(at + 1);
    writeFileSync(file, swapped);
    const out = await startFails(env);
    expect(out).toContain('dataset.json: content differs from the build (SHA-256 mismatch)');
  });

  it('refuses a build without a manifest', async () => {
    const { root, env } = copyBuild();
    rmSync(path.join(root, 'dist', 'integrity.json'));
    expect(await startFails(env)).toMatch(/integrity\.json is missing: run `npm run build`/);
  });
});
