// Shared pieces of the build-time charts: escaping, number formats and the accessible <svg> frame
// (role="img", a <title> and a <desc> named by aria-labelledby / aria-describedby). Pure functions.

/** Escapes text for SVG/HTML content and attribute values. */
export function esc(text: string | number): string {
  return String(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** Rounds to at most `digits` decimals and drops trailing zeros (coordinates, shares). */
export function num(value: number, digits = 2): string {
  const f = 10 ** digits;
  const r = Math.round(value * f) / f;
  return Object.is(r, -0) ? '0' : String(r);
}

/** A money amount in words a reader takes in at a glance: 77.0 bn USD, 380.8 m EUR. */
export function money(value: number, currency: string): string {
  const abs = Math.abs(value);
  const [div, unit] =
    abs >= 1e12 ? [1e12, ' tn'] : abs >= 1e9 ? [1e9, ' bn'] : abs >= 1e6 ? [1e6, ' m'] : [1, ''];
  const shown = div === 1 ? Math.round(value).toLocaleString('en-GB') : (value / div).toFixed(1);
  return `${shown}${unit} ${currency}`;
}

/** A percentage as the API rounds it (0.01 points). */
export function pct(value: number): string {
  return `${num(value, 2)} %`;
}

export interface ChartText {
  /** Unique within the page; used for the title/desc ids. */
  id: string;
  /** Short name of the chart (the accessible name). */
  title: string;
  /** What the chart shows, in words (the accessible description). */
  desc: string;
}

/** The opening of an accessible inline SVG: scales to its box, named and described. */
export function svgOpen(
  text: ChartText,
  width: number,
  height: number,
  attrs: Record<string, string> = {},
): string {
  const extra = Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${esc(v)}"`)
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${num(width)} ${num(height)}" ` +
    `class="chart" role="img" aria-labelledby="${esc(text.id)}-title" ` +
    `aria-describedby="${esc(text.id)}-desc" id="${esc(text.id)}"${extra}>` +
    `<title id="${esc(text.id)}-title">${esc(text.title)}</title>` +
    `<desc id="${esc(text.id)}-desc">${esc(text.desc)}</desc>`
  );
}

/** Approximate width of a label at a font size (system sans-serif), for layout at build time. */
export function textWidth(text: string, fontSize: number): number {
  let em = 0;
  for (const ch of text) em += /[A-Z%@#MW]/.test(ch) ? 0.7 : /[ilj.,:;'|!]/.test(ch) ? 0.3 : 0.56;
  return em * fontSize;
}
