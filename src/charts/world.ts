// Natural Earth country boundaries at 1:50m from the world-atlas package (TopoJSON, countries keyed
// by ISO 3166-1 numeric id), read at build time only.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Topology } from 'topojson-specification';

let cached: Topology | undefined;

export function loadWorld(): Topology {
  cached ??= JSON.parse(
    readFileSync(createRequire(import.meta.url).resolve('world-atlas/countries-50m.json'), 'utf8'),
  ) as Topology;
  return cached;
}
