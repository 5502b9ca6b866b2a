// First calls with @tai/client: run with TAI_BASE_URL and TAI_API_KEY set (DEMO_KEY works).
import { ApiError, createTaiClient } from '@tai/client';

const tai = createTaiClient({
  baseUrl: process.env.TAI_BASE_URL ?? 'http://127.0.0.1:4321',
  apiKey: process.env.TAI_API_KEY, // sent as X-API-Key, never in the query string
  verifySignatures: process.env.TAI_VERIFY === '1', // when the deployment signs its answers
});

// One asset by its TFIN: a typed answer, or the problem (RFC 9457) that refused it.
const { data: list } = await tai.api.GET('/v1/registry/assets', {
  params: { query: { asset_class: 'FUND', limit: 5 } },
});
const first = list?.data[0];
if (first) {
  const { data, error } = await tai.api.GET('/v1/registry/asset', {
    params: { query: { tfin: first.tfin } },
  });
  if (error) console.error(error.code, error.detail);
  else
    console.log(
      `asset ${data.data.tfin}: ${data.data.name} (dataset ${data.meta.dataset_version})`,
    );
}

// Quota: the RateLimit fields of the latest answer; DEMO_KEY is the "demo" tier.
const limit = tai.rateLimit();
console.log(`rate limit: ${limit?.policy} tier, ${limit?.remaining} of ${limit?.quota} left`);

// Paging: every page of a filtered list, following meta.next_cursor.
let funds = 0;
for await (const page of tai.assetPages({ asset_class: 'FUND', limit: 50 }))
  funds += page.data.length;
console.log(`funds: ${funds}`);

// Bulk formats: a dataset operation as CSV or NDJSON.
const csv = await tai.bulk('/v1/market/stablecoins', 'csv');
console.log(`stablecoins csv: ${csv.trimEnd().split('\n').length - 1} rows`);

// A refused call throws ApiError from bulk() (the typed api.GET returns it as `error`).
try {
  await tai.bulk('/v1/registry/assets', 'ndjson', { jurisdiction: 'ZZZ' });
} catch (err) {
  if (!(err instanceof ApiError)) throw err;
  console.log(`refused: ${err.status} ${err.problem.code}`);
}
