// The build-time chart modules (src/charts): pure functions from numbers to accessible SVG.
import { describe, expect, it } from 'vitest';
import { barChart } from '../../src/charts/bar-chart.ts';
import { stackedBarChart } from '../../src/charts/stacked-bar-chart.ts';
import { sparkline, chronological } from '../../src/charts/sparkline.ts';
import {
  binOf,
  euChoropleth,
  memberBounds,
  thinPath,
  CHOROPLETH_BINS,
} from '../../src/charts/eu-choropleth.ts';
import { EU_ALPHA2, EU_NUMERIC_TO_ALPHA2 } from '../../src/charts/eu-members.ts';
import { loadWorld } from '../../src/charts/world.ts';
import { esc, money, num } from '../../src/charts/svg.ts';
import { parseContact, contacts } from '../../src/layouts/contacts.ts';
import {
  dominanceByPegCurrency,
  figureHistory,
  readinessByState,
  registryByLedger,
} from '../../src/charts/from-dataset.ts';
import type { DatasetCore } from '../../src/dataset/artifact.ts';

const attrs = (svg: string, name: string) =>
  [...svg.matchAll(new RegExp(`${name}="([^"]*)"`, 'g'))].map((m) => m[1]);

describe('svg helpers', () => {
  it('escapes markup and quotes, rounds without trailing zeros, writes money in words', () => {
    expect(esc(`<a href="x">&'`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&#39;');
    expect(num(1.005, 1)).toBe('1');
    expect(num(-0.0001)).toBe('0');
    expect(money(77_000_000_000, 'USD')).toBe('77.0 bn USD');
    expect(money(380_819_945, 'EUR')).toBe('380.8 m EUR');
    expect(money(950, 'CHF')).toBe('950 CHF');
  });
});

describe('barChart', () => {
  const svg = barChart({
    id: 'c1',
    title: 'Shares <by coin>',
    desc: 'What it shows',
    max: 100,
    items: [
      { key: 'usdc', label: 'USDC', value: 99.41, display: '99.41 %' },
      { key: 'eurc', label: 'EURC', value: 0.58 },
      { key: 'none', label: 'NONE', value: 0 },
    ],
  });
  it('is an accessible image with a title and a description', () => {
    expect(svg).toMatch(
      /^<svg [^>]*role="img"[^>]*aria-labelledby="c1-title"[^>]*aria-describedby="c1-desc"/,
    );
    expect(svg).toContain('<title id="c1-title">Shares &lt;by coin&gt;</title>');
    expect(svg).toContain('<desc id="c1-desc">What it shows</desc>');
    expect(svg.endsWith('</svg>')).toBe(true);
  });
  it('carries each exact value and draws bars in proportion to the maximum', () => {
    expect(attrs(svg, 'data-key')).toEqual(['usdc', 'eurc', 'none']);
    expect(attrs(svg, 'data-value')).toEqual(['99.41', '0.58', '0']);
    const widths = attrs(svg, 'width').map(Number);
    // A share too small to see still gets a sliver; zero gets none.
    expect(widths[1]).toBeGreaterThanOrEqual(1.5);
    expect(widths[2]).toBe(0);
    const even = barChart({
      id: 'c2',
      title: 't',
      desc: 'd',
      max: 100,
      items: [
        { key: 'a', label: 'A', value: 80 },
        { key: 'b', label: 'B', value: 20 },
      ],
    });
    const [wa, wb] = attrs(even, 'width').map(Number);
    expect(wa! / wb!).toBeCloseTo(4, 1);
    expect(svg).toContain('>99.41 %<');
  });
  it('draws an empty chart for no items', () => {
    expect(barChart({ id: 'e', title: 't', desc: 'd', items: [] })).toMatch(/viewBox="0 0 360 30"/);
  });
});

describe('stackedBarChart', () => {
  it('stacks the parts of each row and totals them', () => {
    const svg = stackedBarChart({
      id: 's',
      title: 't',
      desc: 'd',
      max: 100,
      parts: [
        { key: 'a', label: 'A' },
        { key: 'b', label: 'B' },
      ],
      rows: [
        { key: 'DE', label: 'DE', values: { a: 10, b: 80 } },
        { key: 'RO', label: 'RO', values: { a: 15 } },
      ],
    });
    expect(attrs(svg, 'data-total')).toEqual(['90', '15']);
    expect(attrs(svg, 'data-part')).toEqual(['a', 'b', 'a', 'b']);
    expect(attrs(svg, 'data-value')).toEqual(['10', '80', '15', '0']);
  });
});

describe('sparkline', () => {
  const points = [
    { value: 30, as_of: '2026-06-30' },
    { value: 10, as_of: '2025-06-30' },
    { value: 20, as_of: '2025-12-31' },
  ];
  it('puts the points in date order with x proportional to time and marks the latest', () => {
    expect(chronological(points).map((p) => p.as_of)).toEqual([
      '2025-06-30',
      '2025-12-31',
      '2026-06-30',
    ]);
    const svg = sparkline({ id: 'p', title: 't', desc: 'd', points, width: 200, height: 48 });
    expect(attrs(svg, 'data-as-of')).toEqual(['2025-06-30', '2025-12-31', '2026-06-30']);
    expect(attrs(svg, 'data-value')).toEqual(['10', '20', '30']);
    const xs = attrs(svg, 'cx').map(Number);
    expect(xs[0]).toBe(5);
    expect(xs[2]).toBe(195);
    expect((xs[1]! - xs[0]!) / (xs[2]! - xs[0]!)).toBeCloseTo(184 / 365, 2);
    const ys = attrs(svg, 'cy').map(Number);
    expect(ys[0]).toBeGreaterThan(ys[2]!);
    expect(svg).toContain('class="spark-dot latest"');
  });
  it('draws a single point without a line', () => {
    const svg = sparkline({ id: 'q', title: 't', desc: 'd', points: [points[0]!] });
    expect(svg).not.toContain('polyline');
    expect(attrs(svg, 'data-value')).toEqual(['30']);
  });
});

describe('EU choropleth', () => {
  const world = loadWorld();
  it('maps the 27 member states from ISO numeric to alpha-2 (Greece is GR)', () => {
    expect(EU_ALPHA2).toHaveLength(27);
    expect(EU_NUMERIC_TO_ALPHA2['300']).toBe('GR');
    expect(EU_ALPHA2).not.toContain('EL');
  });
  it('bins scores 0–100 into five classes', () => {
    expect(CHOROPLETH_BINS).toHaveLength(5);
    expect([0, 19, 20, 59, 60, 79, 80, 100].map(binOf)).toEqual([0, 0, 1, 2, 3, 3, 4, 4]);
    expect(binOf(null)).toBeNull();
  });
  it('draws every member state once, with its value, from Natural Earth boundaries', () => {
    const values = EU_ALPHA2.map((iso, i) => ({ iso, name: iso, value: i === 0 ? null : i * 3 }));
    const svg = euChoropleth(world, { id: 'm', title: 'Map', desc: 'd', values });
    expect(attrs(svg, 'data-iso').sort()).toEqual([...EU_ALPHA2]);
    const de = /data-iso="DE" data-value="(\d+)"/.exec(svg)!;
    expect(Number(de[1])).toBe(values.find((v) => v.iso === 'DE')!.value);
    expect(svg).toContain('data-iso="AT" data-value=""');
    expect(svg).toContain('class="choro-none"');
    // Malta and Luxembourg are too small to see: they get a marker.
    expect(svg).toMatch(/data-iso="MT"[^]*?<circle class="choro-\d choro-marker"/);
    expect(svg).toMatch(/data-iso="LU"[^]*?<circle class="choro-\d choro-marker"/);
    expect(svg).toContain(
      '<title>GR: 30 of 100</title>'.replace(
        '30',
        String(values.find((v) => v.iso === 'GR')!.value),
      ),
    );
    expect(svg.length).toBeLessThan(150_000);
  });
  it('leaves overseas territories out (French Guiana, the Canaries, the Azores)', () => {
    const [[west, south], [east, north]] = memberBounds(world);
    expect(west).toBeGreaterThan(-11);
    expect(south).toBeGreaterThan(34);
    expect(east).toBeLessThan(35);
    expect(north).toBeLessThan(71.5);
  });
  it('thins paths without breaking closed rings', () => {
    expect(thinPath('M0,0L0.1,0L0.2,0L10,0L10,10L0,10Z', 1)).toBe('M0,0L10,0L10,10L0,10Z');
    expect(thinPath('M0,0L0.1,0L0.2,0Z', 1)).toBe('');
  });
});

describe('chart data from the dataset core', () => {
  const core = {
    codes: {
      ledgers: { ledgers: [{ code: 'ETH', name: 'Ethereum' }] },
      tfic: { classes: [] },
    },
    registry: {
      rows: [
        { asset_class: 'FUND', ledgers: ['ETH', 'POL'] },
        { asset_class: 'DEBT', ledgers: ['ETH', 'ETH'] },
      ],
    },
    market: {
      coins: [
        { id: 'a', peg_currency: 'USD' },
        { id: 'b', peg_currency: 'EUR' },
        { id: 'c', peg_currency: 'EUR' },
      ],
      dominance: {
        overall: [
          { id: 'a', symbol: 'A', value_usd: 90, share_pct: 90 },
          { id: 'b', symbol: 'B', value_usd: 7, share_pct: 7.01 },
          { id: 'c', symbol: 'C', value_usd: 3, share_pct: 2.99 },
        ],
        peg_groups: [
          { currency: 'USD', coins_compared: 1, total: 90, total_usd: 90, share_pct: 90 },
          { currency: 'EUR', coins_compared: 2, total: 9, total_usd: 10, share_pct: 10 },
          { currency: 'CHF', coins_compared: 0, total: 0, total_usd: 0, share_pct: 0 },
        ],
        by_peg: {},
      },
    },
    mica: {
      member_states: [
        { iso: 'DE', name: 'Germany', readiness: { score: 90, components: { a: { points: 90 } } } },
        { iso: 'XX', name: 'Moved', readiness_score: 5 },
        { iso: 'YY' },
      ],
    },
  } as unknown as DatasetCore;
  it('counts an asset once per ledger it is on', () => {
    expect(registryByLedger(core)).toEqual([
      { key: 'ETH', label: 'Ethereum', count: 2 },
      { key: 'POL', label: 'POL', count: 1 },
    ]);
  });
  it('draws each peg group with compared coins, largest share first', () => {
    expect(dominanceByPegCurrency(core).map((s) => [s.key, s.share_pct])).toEqual([
      ['USD', 90],
      ['EUR', 10],
    ]);
  });
  it('reads member-state scores defensively', () => {
    expect(readinessByState(core).map((s) => [s.iso, s.score])).toEqual([
      ['DE', 90],
      ['XX', 5],
      ['YY', null],
    ]);
  });
  it('turns a figure with history into a series, newest first', () => {
    expect(
      figureHistory(
        'x',
        'X',
        {
          value: 2,
          as_of: '2026-01-01',
          currency: 'USD',
          source: 's',
          history: [{ value: 1, as_of: '2025-01-01', source: 't' }],
        },
        'aum',
      )?.points,
    ).toEqual([
      { value: 2, as_of: '2026-01-01', source: 's' },
      { value: 1, as_of: '2025-01-01', source: 't' },
    ]);
    expect(
      figureHistory('x', 'X', { value: 2, as_of: '2026-01-01', history: [] }, 'aum'),
    ).toBeNull();
    expect(
      figureHistory(
        'x',
        'X',
        { value: null, as_of: '2026-01-01', history: [{ value: 1, as_of: '2025-01-01' }] },
        'aum',
      ),
    ).toBeNull();
  });
});

describe('contacts from configuration', () => {
  it('links e-mail addresses, URLs and phone numbers; shows nothing when unset', () => {
    expect(parseContact('sales@example.org')).toEqual({
      text: 'sales@example.org',
      href: 'mailto:sales@example.org',
    });
    expect(parseContact('https://example.org/contact')).toEqual({
      text: 'example.org/contact',
      href: 'https://example.org/contact',
    });
    expect(parseContact('+49 69 1234 5678')).toEqual({
      text: '+49 69 1234 5678',
      href: 'tel:+496912345678',
    });
    expect(parseContact('Ask your account manager')).toEqual({
      text: 'Ask your account manager',
      href: null,
    });
    expect(parseContact('  ')).toBeNull();
    expect(parseContact(undefined)).toBeNull();
    expect(contacts({})).toEqual({ sales: null, support: null });
    expect(contacts({ SUPPORT_CONTACT: 'help@example.org' }).sales).toBeNull();
  });
});
