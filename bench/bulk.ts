// Bulk representations (issue #15): the unfiltered registry list as CSV and NDJSON, beside the
// JSON rows of `npm run bench`, on our server (the prebuilt bodies with their own ETags, chosen by
// `Accept`). nginx and the bare node:http baseline serve the JSON list only: compare these rows
// with "registry list (identity)" and "(gzip)" of the same run.

/** The shape of bench/run.ts's workloads. */
export interface BulkWorkload {
  name: string;
  path: string;
  headers?: Record<string, string>;
  on: string[];
  expect: number;
}

export function bulkWorkloads(): BulkWorkload[] {
  const representations = [
    ['CSV', 'text/csv'],
    ['NDJSON', 'application/x-ndjson'],
  ] as const;
  return representations.flatMap(([label, type]) => [
    {
      name: `registry list ${label} (identity)`,
      path: '/v1/registry/assets',
      headers: { Accept: type },
      on: ['ours'],
      expect: 200,
    },
    {
      name: `registry list ${label} (gzip)`,
      path: '/v1/registry/assets',
      headers: { Accept: type, 'Accept-Encoding': 'gzip' },
      on: ['ours'],
      expect: 200,
    },
  ]);
}
