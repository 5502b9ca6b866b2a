// The registry as a running service holds it: the core (index, coverage) and one response body
// per asset, not the profiles as objects. Summaries for list pages are read back from the bodies.
import type { AssetProfile } from '../domain/api.ts';
import type { HistoryPoint } from '../domain/common.ts';
import type { DatasetCore } from '../dataset/artifact.ts';
import type { RegistrySource } from './registry-list.ts';
import { assetSummary } from '../dataset/asset-shapes.ts';

export interface RegistryRuntime extends RegistrySource {
  core: DatasetCore;
  has(tfin: string): boolean;
  /** The prebuilt response body of an asset (JSON text), or undefined. */
  bodyOf(tfin: string): string | undefined;
  tfins(): Iterable<string>;
  /** The asset's amount history (for `include=history`; empty when it has none). */
  historyOf(tfin: string): HistoryPoint[];
}

/** `known` is the caller's own index of the TFINs it has bodies for (a Map or Set). */
export function registryRuntime(
  core: DatasetCore,
  body: (tfin: string) => string | undefined,
  known: { has(tfin: string): boolean; keys(): Iterable<string> },
  historyOf: (tfin: string) => HistoryPoint[] = () => [],
  summaryRows?: (tfins: readonly string[], prefix?: Buffer, suffix?: Buffer) => Buffer,
): RegistryRuntime {
  const profileOf = (tfin: string) => (JSON.parse(body(tfin)!) as { data: AssetProfile }).data;
  return {
    core,
    has: (tfin) => known.has(tfin),
    bodyOf: (tfin) => (known.has(tfin) ? body(tfin) : undefined),
    tfins: () => known.keys(),
    summaryOf: (tfin) => assetSummary(profileOf(tfin)),
    historyOf,
    ...(summaryRows ? { summaryRows } : {}),
  };
}
