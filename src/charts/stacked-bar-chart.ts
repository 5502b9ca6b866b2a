// Horizontal stacked bars as an SVG string: one row per item, one segment per part, a legend on
// top. Used where a score is a sum of components (the readiness formula), so the chart shows how
// each total is made. Segments carry data-part and data-value; rows carry data-total.
import { esc, num, svgOpen, textWidth, type ChartText } from './svg.ts';

export interface StackPart {
  key: string;
  label: string;
}

export interface StackRow {
  key: string;
  label: string;
  /** Points per part key; missing parts count 0. */
  values: Record<string, number>;
}

export interface StackedBarInput extends ChartText {
  parts: readonly StackPart[];
  rows: StackRow[];
  /** The value of a full-width bar (e.g. the score's maximum, 100). */
  max: number;
  width?: number;
}

const ROW = 20;
const FONT = 13;
const LEGEND_ROW = 20;

export function stackedBarChart(input: StackedBarInput): string {
  const { parts, rows, max, width = 420 } = input;
  const labelW = Math.max(30, ...rows.map((r) => textWidth(r.label, FONT))) + 8;
  const totalW = 36;
  const barW = Math.max(20, width - labelW - totalW);
  // Legend: swatches in as many columns as fit.
  const colW = Math.max(...parts.map((p) => textWidth(p.label, 12))) + 22;
  const cols = Math.max(1, Math.floor(width / colW));
  const legendH = Math.ceil(parts.length / cols) * LEGEND_ROW + 6;
  const legend = parts.map((p, i) => {
    const x = (i % cols) * colW;
    const y = Math.floor(i / cols) * LEGEND_ROW;
    return (
      `<g class="legend-item"><rect class="stack-${i}" x="${num(x)}" y="${num(y + 4)}" width="12" height="12" rx="2"/>` +
      `<text class="chart-label small" x="${num(x + 17)}" y="${num(y + 10)}" dominant-baseline="central">${esc(p.label)}</text></g>`
    );
  });
  const body = rows.map((row, r) => {
    const y = legendH + r * ROW;
    let x = labelW;
    let total = 0;
    const segs = parts.map((p, i) => {
      const v = row.values[p.key] ?? 0;
      total += v;
      const w = max > 0 ? (Math.max(0, v) / max) * barW : 0;
      const seg =
        `<rect class="stack-${i}" data-part="${esc(p.key)}" data-value="${esc(v)}" x="${num(x)}" y="${num(y + 3)}" width="${num(w)}" height="${ROW - 6}">` +
        `<title>${esc(`${row.label}: ${p.label} ${v}`)}</title></rect>`;
      x += w;
      return seg;
    });
    return (
      `<g class="stack-row" data-key="${esc(row.key)}" data-total="${esc(total)}">` +
      `<text class="chart-label" x="${num(labelW - 8)}" y="${num(y + ROW / 2)}" text-anchor="end" dominant-baseline="central">${esc(row.label)}</text>` +
      segs.join('') +
      `<text class="chart-value" x="${num(x + 5)}" y="${num(y + ROW / 2)}" dominant-baseline="central">${esc(total)}</text></g>`
    );
  });
  const height = legendH + rows.length * ROW + 4;
  return `${svgOpen(input, width, height, { 'data-chart': 'stacked-bar' })}${legend.join('')}${body.join('')}</svg>`;
}
