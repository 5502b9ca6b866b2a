// Issue #14 item 18: what the readiness endpoint calls, `artifactIntegrity()`.
import { mkdirSync, mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactIntegrity, verifyArtifacts, writeManifest } from '../../src/dataset/integrity.ts';

describe('artifactIntegrity', () => {
  it('is ok after verification, and not ok once an artifact is truncated under the running server', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'tai-int-'));
    const dist = path.join(root, 'dist');
    mkdirSync(path.join(dist, 'client'), { recursive: true });
    const dataset = path.join(root, 'dataset.json');
    writeFileSync(dataset, '{"dataset_version":"x"}');
    writeFileSync(path.join(dist, 'client', 'pack'), Buffer.alloc(4096, 7));
    writeManifest(dist, dataset, ['client/pack']);
    expect(artifactIntegrity(0).ok).toBe(false); // not verified yet
    verifyArtifacts(dist, dataset);
    expect(artifactIntegrity(1_000)).toEqual({ ok: true, problems: [] });
    truncateSync(path.join(dist, 'client', 'pack'), 100);
    const report = artifactIntegrity(10_000);
    expect(report.ok).toBe(false);
    expect(report.problems[0]).toMatch(/pack: 100 bytes, the build wrote 4096/);
    expect(() => verifyArtifacts(dist, dataset)).toThrow(/build integrity/);
  });
});
