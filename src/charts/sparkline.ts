// A sparkline of one figure's history as an SVG string: the dated values in time order (x is
// proportional to the date), a dot per value, the first and latest values printed. Each dot
// carries data-value and data-as-of.
import { esc, num, svgOpen, type ChartText } from './svg.ts';

export interface SeriesPoint {
  value: number;
  /** ISO date, YYYY-MM-DD. */
  as_of: string;
}

export interface SparklineInput extends ChartText {
  points: SeriesPoint[];
  width?: number;
  height?: number;
}

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;

/** Points in date order (oldest first); the data keeps history newest first. */
export function chronological(points: readonly SeriesPoint[]): SeriesPoint[] {
  return [...points].sort((a, b) => (a.as_of < b.as_of ? -1 : a.as_of > b.as_of ? 1 : 0));
}

export function sparkline(input: SparklineInput): string {
  const { width = 200, height = 48 } = input;
  const pts = chronological(input.points);
  const pad = 5;
  const t0 = pts.length ? day(pts[0]!.as_of) : 0;
  const t1 = pts.length ? day(pts.at(-1)!.as_of) : 1;
  const values = pts.map((p) => p.value);
  const lo = Math.min(...values, Infinity);
  const hi = Math.max(...values, -Infinity);
  const x = (p: SeriesPoint) =>
    pts.length < 2 || t1 === t0
      ? width / 2
      : pad + ((day(p.as_of) - t0) / (t1 - t0)) * (width - 2 * pad);
  const y = (p: SeriesPoint) =>
    hi === lo ? height / 2 : height - pad - ((p.value - lo) / (hi - lo)) * (height - 2 * pad);
  const line =
    pts.length > 1
      ? `<polyline class="spark-line" fill="none" points="${pts.map((p) => `${num(x(p), 1)},${num(y(p), 1)}`).join(' ')}"/>`
      : '';
  const dots = pts
    .map(
      (p, i) =>
        `<circle class="spark-dot${i === pts.length - 1 ? ' latest' : ''}" cx="${num(x(p), 1)}" cy="${num(y(p), 1)}" r="${i === pts.length - 1 ? 3.5 : 2.5}" data-value="${esc(p.value)}" data-as-of="${esc(p.as_of)}"/>`,
    )
    .join('');
  return `${svgOpen(input, width, height, { 'data-chart': 'sparkline' })}${line}${dots}</svg>`;
}
