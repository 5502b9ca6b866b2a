// Where the server's time goes under load: a V8 CPU profile (`node --cpu-prof`) summarised as
// self time per area (the kernel's socket writes, idle, Node's HTTP internals, our code, libraries,
// GC) and per function. Wall-clock sampling: time in a system call counts as that call.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function area(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (url === '') {
    if (
      functionName === 'writev' ||
      functionName === 'writeBuffer' ||
      functionName === 'writeUtf8String'
    )
      return 'socket writes (system call)';
    if (functionName === '(idle)') return 'idle (waiting for the network)';
    if (functionName === '(garbage collector)') return 'garbage collection';
    if (functionName === 'writeString') return 'log writes (system call)';
    return 'V8 and native code';
  }
  if (url.startsWith('node:')) return 'Node internals (HTTP, streams, events)';
  if (url.includes('/node_modules/'))
    return `library: ${url.split('/node_modules/')[1]!.split('/')[0]}`;
  if (url.includes('/src/')) return `ours: src/${url.split('/src/')[1]!.split('/')[0]}`;
  return 'other';
}

/** Markdown lines: the share of samples per area and the top functions by self time. */
export function summariseProfiles(dir: string, topFunctions = 12): string[] {
  const selfByArea = new Map<string, number>();
  const selfByFunction = new Map<string, number>();
  let total = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const dt = profile.timeDeltas[i] ?? 0;
      const frame = byId.get(id)!.callFrame;
      total += dt;
      const a = area(frame);
      selfByArea.set(a, (selfByArea.get(a) ?? 0) + dt);
      const where = frame.url
        ? `${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}`
        : '';
      const name = `${frame.functionName || '(anonymous)'} ${where}`.trim();
      selfByFunction.set(name, (selfByFunction.get(name) ?? 0) + dt);
    });
  }
  const pct = (n: number) => ((100 * n) / total).toFixed(1);
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return [
    '| area | share of samples % |',
    '|---|---:|',
    ...sorted(selfByArea)
      .filter(([, t]) => t / total >= 0.005)
      .map(([a, t]) => `| ${a} | ${pct(t)} |`),
    '',
    '| function (self time) | % |',
    '|---|---:|',
    ...sorted(selfByFunction)
      .slice(0, topFunctions)
      .map(([f, t]) => `| \`${f}\` | ${pct(t)} |`),
  ];
}
