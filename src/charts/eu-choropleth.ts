// The EU member states coloured by a score (0–100) as an SVG string, drawn from Natural Earth
// boundaries (world-atlas TopoJSON) with d3-geo: a Lambert azimuthal equal-area projection
// centred on Europe (as EPSG:3035), fitted to the member states' European territory. Overseas
// territories are left out; neighbouring countries are drawn in grey for orientation; states too
// small to see (Malta, Luxembourg) get a marker. Every state's shape carries data-iso and
// data-value; the colour classes (choro-0 … choro-4, choro-none; t-0 … for the printed codes) are
// styled by the site's CSS, so each colour scheme picks its own palette.
import { geoArea, geoAzimuthalEqualArea, geoBounds, geoCentroid, geoPath } from 'd3-geo';
import type { Feature, FeatureCollection, Geometry, MultiPolygon, Polygon } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { EU_NUMERIC_TO_ALPHA2 } from './eu-members.ts';
import { esc, num, svgOpen, type ChartText } from './svg.ts';

export interface StateValue {
  iso: string;
  name: string;
  /** Null when the state has no score. */
  value: number | null;
}

export interface ChoroplethInput extends ChartText {
  values: StateValue[];
  width?: number;
  height?: number;
}

/** Score bins: [lower bound, upper bound] inclusive, one colour class each. */
export const CHOROPLETH_BINS: readonly [number, number][] = [
  [0, 19],
  [20, 39],
  [40, 59],
  [60, 79],
  [80, 100],
];

export function binOf(value: number | null): number | null {
  if (value === null) return null;
  const i = CHOROPLETH_BINS.findIndex(([lo, hi]) => value >= lo && value <= hi);
  return i === -1 ? (value > 100 ? CHOROPLETH_BINS.length - 1 : 0) : i;
}

/** Europe for this map: polygons whose centre lies here are drawn (no overseas territories). */
const EUROPE = { west: -11, east: 35, south: 34, north: 71.5 };
/** Neighbours: any country with a polygon centred here is drawn in grey (clipped to the frame). */
const AROUND = { west: -25, east: 50, south: 28, north: 75 };
/** Below this area (steradians; 1e-4 sr ≈ 4,000 km²) a state gets a marker as well as its shape. */
const SMALL = 1e-4;
/** Above this area (≈ 24,000 km²) the state's code is printed on it. */
const LABELLED = 6e-4;

type Shape = Polygon | MultiPolygon;

function polygonsOf(geometry: Geometry | null): Polygon[] {
  if (!geometry) return [];
  if (geometry.type === 'Polygon') return [geometry];
  if (geometry.type === 'MultiPolygon')
    return geometry.coordinates.map((coordinates) => ({ type: 'Polygon', coordinates }));
  return [];
}

function within(
  box: { west: number; east: number; south: number; north: number },
  p: Polygon,
): boolean {
  const [lon, lat] = geoCentroid(p);
  return lon >= box.west && lon <= box.east && lat >= box.south && lat <= box.north;
}

function keep(geometry: Geometry | null, box: typeof EUROPE): Shape | null {
  const polys = polygonsOf(geometry).filter((p) => within(box, p));
  if (polys.length === 0) return null;
  return polys.length === 1
    ? polys[0]!
    : { type: 'MultiPolygon', coordinates: polys.map((p) => p.coordinates) };
}

/** The world-atlas countries object as GeoJSON features keyed by ISO numeric id. */
export function countriesOf(topology: Topology): Feature<Geometry, { name?: string }>[] {
  const object = topology.objects['countries'] as GeometryCollection<{ name?: string }>;
  return (feature(topology, object) as FeatureCollection<Geometry, { name?: string }>).features;
}

/**
 * Thins a projected path: within each ring, drops points closer than `tolerance` pixels to the
 * last kept one (the ring's last point is always kept). At map scale this cuts the 1:50m
 * coastlines to a third of their bytes with no visible change; rings that collapse are dropped.
 */
export function thinPath(d: string, tolerance: number): string {
  const out: string[] = [];
  for (const sub of d.match(/M[^M]*/g) ?? []) {
    const closed = sub.endsWith('Z');
    const pts = [...sub.matchAll(/(-?[\d.]+),(-?[\d.]+)/g)].map(
      (m) => [Number(m[1]), Number(m[2])] as const,
    );
    if (pts.length === 0) continue;
    const kept = [pts[0]!];
    for (const p of pts.slice(1, -1)) {
      const last = kept.at(-1)!;
      if (Math.hypot(p[0] - last[0], p[1] - last[1]) >= tolerance) kept.push(p);
    }
    if (pts.length > 1) kept.push(pts.at(-1)!);
    if (closed && kept.length < 3) continue;
    out.push(`M${kept.map(([x, y]) => `${num(x, 1)},${num(y, 1)}`).join('L')}${closed ? 'Z' : ''}`);
  }
  return out.join('');
}

const THIN = 1.2;

export function euChoropleth(topology: Topology, input: ChoroplethInput): string {
  const { width = 560, height = 520 } = input;
  const byIso = new Map(input.values.map((v) => [v.iso, v]));
  const countries = countriesOf(topology);
  const members: { iso: string; shape: Shape }[] = [];
  const others: Shape[] = [];
  for (const c of countries) {
    const iso = c.id === undefined ? undefined : EU_NUMERIC_TO_ALPHA2[String(c.id)];
    if (iso) {
      const shape = keep(c.geometry, EUROPE);
      if (shape) members.push({ iso, shape });
    } else {
      const shape = keep(c.geometry, AROUND);
      if (shape) others.push(shape);
    }
  }
  const frame: Feature<MultiPolygon> = {
    type: 'Feature',
    properties: {},
    geometry: {
      type: 'MultiPolygon',
      coordinates: members.flatMap((m) => polygonsOf(m.shape).map((p) => p.coordinates)),
    },
  };
  const projection = geoAzimuthalEqualArea()
    .rotate([-10, -52])
    .fitExtent(
      [
        [6, 6],
        [width - 6, height - 6],
      ],
      frame,
    );
  projection.clipExtent([
    [0, 0],
    [width, height],
  ]);
  const path = geoPath(projection).digits(1);
  const grey = others
    .map((s) => thinPath(path(s) ?? '', THIN))
    .filter((d) => d !== '')
    .map((d) => `<path class="choro-other" d="${d}"/>`)
    .join('');
  const states = members
    .sort((a, b) => a.iso.localeCompare(b.iso))
    .map(({ iso, shape }) => {
      const v = byIso.get(iso);
      const value = v?.value ?? null;
      const bin = binOf(value);
      const cls = bin === null ? 'choro-none' : `choro-${bin}`;
      const label = `${v?.name ?? iso}: ${value === null ? 'no score' : `${value} of 100`}`;
      // Tiny states keep their full outline (their marker shows them anyway).
      const raw = path(shape) ?? '';
      const d = thinPath(raw, THIN) || raw;
      let marker = '';
      let code = '';
      const [cx, cy] = projection(geoCentroid(shape)) ?? [0, 0];
      if (geoArea(shape) < SMALL) {
        marker = `<circle class="${cls} choro-marker" cx="${num(cx, 1)}" cy="${num(cy, 1)}" r="5"/>`;
      } else if (geoArea(shape) > LABELLED) {
        code = `<text class="choro-code t-${bin ?? 'none'}" x="${num(cx, 1)}" y="${num(cy, 1)}" text-anchor="middle" dominant-baseline="central" aria-hidden="true">${esc(iso)}</text>`;
      }
      return (
        `<g class="choro-state" data-iso="${esc(iso)}" data-value="${value === null ? '' : esc(value)}">` +
        `<title>${esc(label)}</title><path class="${cls}" d="${d}"/>${marker}${code}</g>`
      );
    })
    .join('');
  return `${svgOpen(input, width, height, { 'data-chart': 'choropleth' })}${grey}${states}</svg>`;
}

/** The bounds of the drawn member states (for tests: no overseas territory widens the map). */
export function memberBounds(topology: Topology): [[number, number], [number, number]] {
  const shapes = countriesOf(topology)
    .filter((c) => c.id !== undefined && EU_NUMERIC_TO_ALPHA2[String(c.id)])
    .map((c) => keep(c.geometry, EUROPE))
    .filter((s): s is Shape => s !== null);
  return geoBounds({
    type: 'Feature',
    properties: {},
    geometry: {
      type: 'MultiPolygon',
      coordinates: shapes.flatMap((s) => polygonsOf(s).map((p) => p.coordinates)),
    },
  });
}
