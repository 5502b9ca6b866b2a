// Every `sources` list in the data, with the file and path it sits at, so the source policy can
// be checked in one place for assets, stablecoins, venues, FX and the MiCA files alike.
import type { Source } from '../domain/common.ts';
import type { CheckContext, Loaded } from './checks.ts';
import type { YamlFile } from './yaml-file.ts';

export interface SourceList {
  file: YamlFile;
  at: (string | number)[];
  sources: readonly Source[];
  /** The record failed its schema: its sources may be malformed (the schema said so). */
  schemaFailed: boolean;
}

const listOf = (item: Loaded<unknown>, at: (string | number)[], sources: unknown): SourceList[] =>
  Array.isArray(sources)
    ? [{ file: item.file, at, sources: sources as Source[], schemaFailed: !!item.schemaFailed }]
    : [];

const sourcesOf = (record: unknown): unknown => (record as { sources?: unknown }).sources;

export function allSourceLists(ctx: CheckContext): SourceList[] {
  const lists: SourceList[] = [];
  const whole = (item: Loaded<unknown> | null | undefined) => {
    if (item) lists.push(...listOf(item, ['sources'], sourcesOf(item.record)));
  };
  ctx.assets.forEach(whole);
  ctx.market?.stablecoins.forEach(whole);
  whole(ctx.market?.fx);
  const venues = ctx.market?.venues;
  venues?.record.venues.forEach((v, i) =>
    lists.push(...listOf(venues, ['venues', i, 'sources'], v.sources)),
  );
  ctx.mica?.memberStates.forEach(whole);
  whole(ctx.mica?.categories);
  whole(ctx.mica?.jurisdictions);
  return lists;
}

/** The host of a URL matches a domain when it is the domain or one of its subdomains. */
export function onDomain(url: string, domains: readonly string[]): string | null {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
  return domains.find((d) => host === d || host.endsWith(`.${d}`)) ?? null;
}
