// The readiness formula as a picture: each member state's score as a stack of its six
// components' points (methodology page), from the built dataset.
import type { DatasetCore } from '../dataset/artifact.ts';
import { READINESS_PARTS, readinessByState } from './from-dataset.ts';
import { stackedBarChart, type StackRow } from './stacked-bar-chart.ts';

export function readinessChart(core: DatasetCore): {
  svg: string;
  parts: readonly { key: string; label: string }[];
  rows: (StackRow & { score: number | null })[];
} {
  const rows = readinessByState(core)
    .filter((s) => s.score !== null)
    .sort((a, b) => b.score! - a.score! || a.iso.localeCompare(b.iso))
    .map((s) => ({ key: s.iso, label: s.iso, values: s.components, score: s.score }));
  const svg = stackedBarChart({
    id: 'chart-readiness-components',
    title: 'Readiness score by member state, by component',
    desc: `Each bar is one member state's readiness score (0–100), split into the points of its six components: ${READINESS_PARTS.map((p) => p.label).join(', ')}. Highest first: ${rows
      .slice(0, 3)
      .map((r) => `${r.key} ${r.score}`)
      .join(', ')}; lowest: ${rows
      .slice(-3)
      .map((r) => `${r.key} ${r.score}`)
      .join(', ')}. The points are in the table.`,
    parts: READINESS_PARTS,
    rows,
    max: 100,
  });
  return { svg, parts: READINESS_PARTS, rows };
}
