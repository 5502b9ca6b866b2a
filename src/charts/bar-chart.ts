// Horizontal bar chart as an SVG string: one row per item (label, bar, value). Every bar carries
// data-key and data-value, so tests (and readers of the source) get the exact number drawn.
import { esc, num, svgOpen, textWidth, type ChartText } from './svg.ts';

export interface BarItem {
  key: string;
  label: string;
  value: number;
  /** The value as printed at the end of the bar (defaults to the number). */
  display?: string;
}

export interface BarChartInput extends ChartText {
  items: BarItem[];
  /** The value of a full-width bar (defaults to the largest value). */
  max?: number;
  width?: number;
}

const ROW = 26;
const FONT = 14;
const GAP = 8;

export function barChart(input: BarChartInput): string {
  const { items, width = 360 } = input;
  const max = input.max ?? Math.max(0, ...items.map((i) => i.value));
  const labelW = Math.min(
    width * 0.4,
    Math.max(40, ...items.map((i) => textWidth(i.label, FONT))) + GAP,
  );
  const valueW =
    Math.max(40, ...items.map((i) => textWidth(i.display ?? String(i.value), FONT))) + GAP;
  const barW = Math.max(20, width - labelW - valueW);
  const height = Math.max(ROW, items.length * ROW) + 4;
  const rows = items.map((item, i) => {
    const y = 2 + i * ROW;
    const w = max > 0 ? (Math.max(0, item.value) / max) * barW : 0;
    // A value above zero always shows a sliver, so a small share is not read as none.
    const drawn = item.value > 0 ? Math.max(w, 1.5) : 0;
    const shown = item.display ?? String(item.value);
    return (
      `<g class="bar" data-key="${esc(item.key)}" data-value="${esc(item.value)}">` +
      `<text class="chart-label" x="${num(labelW - GAP)}" y="${num(y + ROW / 2)}" text-anchor="end" dominant-baseline="central">${esc(item.label)}</text>` +
      `<rect class="chart-bar" x="${num(labelW)}" y="${num(y + 4)}" width="${num(drawn)}" height="${ROW - 8}" rx="2"/>` +
      `<text class="chart-value" x="${num(labelW + drawn + 6)}" y="${num(y + ROW / 2)}" dominant-baseline="central">${esc(shown)}</text>` +
      `</g>`
    );
  });
  return `${svgOpen(input, width, height, { 'data-chart': 'bar' })}${rows.join('')}</svg>`;
}
