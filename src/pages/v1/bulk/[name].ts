// Build artifacts, never public routes (only the five operations are served under /v1): the
// unfiltered CSV and NDJSON bodies of every operation with bulk formats in the operations table,
// which the server loads with their precompressed codings, as it loads the JSON ones. The bytes
// are the bodies pass's (src/authoring/prebuilt-bodies.ts: the registry streamed from the
// profiles), sent unparsed.
import type { APIRoute, GetStaticPaths } from 'astro';
import { BULK_FORMATS, MEDIA_TYPES, bulkFile, type BulkFormat } from '../../../api/bulk.ts';
import { BULK_ROUTES } from '../../../api/operations.ts';
import { datasetPath } from '../../../dataset/artifact.ts';
import { prebuiltBody } from '../../../dataset/built-files.ts';

export const prerender = true;

export const getStaticPaths = (() =>
  BULK_ROUTES.flatMap((route) =>
    BULK_FORMATS.map((format) => {
      const file = bulkFile(route, format);
      return { params: { name: file.slice('v1/bulk/'.length) }, props: { file, format } };
    }),
  )) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => {
  const { file, format } = props as { file: string; format: BulkFormat };
  return new Response(prebuiltBody(datasetPath(), file), {
    headers: { 'Content-Type': MEDIA_TYPES[format] },
  });
};
