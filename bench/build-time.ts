// Build time by phase at today's data and at synthetic registries (bench/scaling.ts
// generateRegistry), with each phase's peak RSS: data:build, then the emitter (scripts/emit.ts:
// every body, astro build and postbuild in one process, on one parse of the core; before #39
// item 1 these were three processes, bodies, astro build and postbuild). Issue #28 item 3: run it
// before and after a build change on the same machine, one size at a time.
// `BENCH_BUILD_SIZES=0,10000,100000 node bench/build-time.ts` (0 = the committed data).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { generateRegistry } from './scaling.ts';

const SIZES = (process.env['BENCH_BUILD_SIZES'] ?? '0,10000,100000').split(',').map(Number);

interface Phase {
  name: string;
  seconds: number;
  peakRssMb: number;
}

/** Runs one phase under GNU time's sibling, /proc: wall time and the child's peak RSS. */
function phase(name: string, args: string[], env: NodeJS.ProcessEnv): Phase {
  const t0 = performance.now();
  // `node --expose-gc`-free: the peak RSS is what the kernel reports for the finished child.
  const r = spawnSync('/usr/bin/env', ['time', '-f', '%M', process.execPath, ...args], {
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) {
    console.error(`${r.stdout}\n${r.stderr}`.slice(-3000));
    throw new Error(`${name} failed (output above)`);
  }
  const peakKb = Number(r.stderr.trim().split('\n').at(-1));
  return { name, seconds, peakRssMb: Math.round(peakKb / 1024) };
}

export function buildPhases(size: number): Phase[] {
  mkdirSync(path.resolve('.bench-tmp'), { recursive: true });
  const root = size ? mkdtempSync(path.resolve('.bench-tmp', `build-${size}-`)) : null;
  const out = root ?? mkdtempSync(path.resolve('.bench-tmp', 'build-today-'));
  const dataset = path.join(out, 'build', 'dataset.json');
  const env = {
    ...process.env,
    TAI_DIST_DIR: path.join(out, 'dist'),
    TAI_DATASET: dataset,
    ASTRO_TELEMETRY_DISABLED: '1',
  };
  try {
    if (root) generateRegistry(root, size);
    const dataArgs = ['scripts/data.ts', 'build', '--out', dataset];
    if (root) dataArgs.push('--root', root);
    return [
      phase('data:build', ['--max-old-space-size=12288', ...dataArgs], env),
      phase('emit', ['scripts/emit.ts'], env),
    ];
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log('| records | data:build s (peak MB) | emit s (peak MB) | total s | peak MB |');
  console.log('|---:|---:|---:|---:|---:|');
  for (const size of SIZES) {
    const phases = buildPhases(size);
    const cell = (p: Phase) => `${p.seconds.toFixed(1)} (${p.peakRssMb})`;
    const total = phases.reduce((s, p) => s + p.seconds, 0);
    const peak = Math.max(...phases.map((p) => p.peakRssMb));
    console.log(
      `| ${size || 'today'} | ${phases.map(cell).join(' | ')} | ${total.toFixed(1)} | ${peak} |`,
    );
  }
}
