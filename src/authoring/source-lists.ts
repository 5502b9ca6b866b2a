// Every `sources` list in the data, with the file and path it sits at, so the source policy can
// be checked in one place for assets, stablecoins, venues, FX and the MiCA files alike.
import type { Source } from '../domain/common.ts';
import type { Loaded, YamlFile } from '../dataset/loaded.ts';
import type { CheckContext } from './rules/rule.ts';

export interface SourceList {
  file: YamlFile;
  at: (string | number)[];
  sources: readonly Source[];
  /** The record failed its schema: its sources may be malformed (the schema said so). */
  schemaFailed: boolean;
}

/** Every `sources` list inside a record, at any depth (venues and MiCA categories nest theirs). */
function sourceListsIn(item: Loaded<unknown>): SourceList[] {
  const lists: SourceList[] = [];
  const walk = (value: unknown, at: (string | number)[]) => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...at, i]));
    else if (value && typeof value === 'object')
      for (const [key, v] of Object.entries(value)) {
        if (key === 'sources' && Array.isArray(v))
          lists.push({
            file: item.file,
            at: [...at, key],
            sources: v as Source[],
            schemaFailed: !!item.schemaFailed,
          });
        else walk(v, [...at, key]);
      }
  };
  walk(item.record, []);
  return lists;
}

/** Every loaded data file: the records, the market and MiCA files, the register files. */
export function loadedFiles(ctx: CheckContext): Loaded<unknown>[] {
  const mica = ctx.mica;
  const files: (Loaded<unknown> | null | undefined)[] = [
    ...ctx.assets,
    ...(ctx.market?.stablecoins ?? []),
    ctx.market?.venues,
    ctx.market?.fx,
    ctx.market?.totals,
    ...(mica?.memberStates ?? []),
    mica?.categories,
    mica?.jurisdictions,
    mica?.transitional,
    ...Object.values(mica?.register ?? {}),
  ];
  return files.filter((f): f is Loaded<unknown> => !!f);
}

export function allSourceLists(ctx: CheckContext): SourceList[] {
  return loadedFiles(ctx).flatMap(sourceListsIn);
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
