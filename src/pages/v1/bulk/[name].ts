// Build artifacts, never public routes (only the five operations are served under /v1): the
// unfiltered CSV and NDJSON bodies of the three dataset operations, which the server loads with
// their precompressed codings, as it loads the JSON ones. The registry is streamed from the
// profiles file (in TFIN order, the default order), so a large registry is never one string.
import type { APIRoute, GetStaticPaths } from 'astro';
import { readDataset, readProfiles } from '../../../dataset/artifact.ts';
import { micaBulk, registryBulk, stablecoinsBulk } from '../../../api/bodies.ts';
import { BULK_FORMATS, MEDIA_TYPES, bulkFile, type BulkFormat } from '../../../api/bulk.ts';
import { BULK_ROUTES } from '../../../api/operations.ts';
import { assetSummary } from '../../../dataset/views.ts';

export const prerender = true;

export const getStaticPaths = (() =>
  BULK_ROUTES.flatMap((route) =>
    BULK_FORMATS.map((format) => ({
      params: { name: bulkFile(route, format).slice('v1/bulk/'.length) },
      props: { route, format },
    })),
  )) satisfies GetStaticPaths;

function stream(chunks: Iterator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
}

export const GET: APIRoute = ({ props }) => {
  const { route, format } = props as { route: (typeof BULK_ROUTES)[number]; format: BulkFormat };
  const core = readDataset();
  const headers = { 'Content-Type': MEDIA_TYPES[format] };
  if (route === '/v1/registry/assets') {
    const profiles = readProfiles();
    // Rows and profiles are both in TFIN order: each summary is the next profile's.
    const summaryOf = (tfin: string) => {
      for (let next = profiles.next(); !next.done; next = profiles.next())
        if (next.value.tfin === tfin) return assetSummary(next.value);
      throw new Error(`no profile for ${tfin}`);
    };
    return new Response(stream(registryBulk({ core, summaryOf }, {}, format)), { headers });
  }
  const text =
    route === '/v1/market/stablecoins'
      ? stablecoinsBulk(core, {}, format)
      : micaBulk(core, {}, format)!;
  return new Response(text, { headers });
};
